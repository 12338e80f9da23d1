"""The embedding runtime: sentence embedders (bundled MiniLM on ONNX Runtime by default), their registry and the ONNX export."""
