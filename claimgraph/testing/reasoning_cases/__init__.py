"""Malformed reasoning-graph responses generated from paper structure, each with its expected verdict."""
