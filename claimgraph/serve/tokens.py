"""The update token: writes through the server need ``Authorization: Bearer <token>`` with the token given at start.

The token is read from a file (``--update-token-file``) or the environment
(``CLAIMGRAPH_UPDATE_TOKEN``) so that it does not show in the process list;
``--update-token VALUE`` works too, with a warning. Without a token the server
is read-only: every update is refused (403). A request without credentials
gets 401 and a ``WWW-Authenticate`` challenge; a wrong token gets 403. Tokens
are compared in constant time.
"""

from __future__ import annotations

import hmac
from pathlib import Path

from claimgraph.errors import ClaimgraphError
from claimgraph.serve.evaluate import Answer

TOKEN_ENV = "CLAIMGRAPH_UPDATE_TOKEN"
MIN_TOKEN_LENGTH = 16


class TokenError(ClaimgraphError):
    """The update token given at start is unusable (too short, unreadable file)."""


def read_token_file(path: Path) -> str:
    try:
        token = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise TokenError(f"cannot read the update token file {path}: {error}") from error
    if not token:
        raise TokenError(f"the update token file {path} is empty")
    return token


def checked_token(token: str | None) -> str | None:
    """The token, refused when it is too short to be a secret."""
    if token is None:
        return None
    token = token.strip()
    if len(token) < MIN_TOKEN_LENGTH or any(character.isspace() for character in token):
        raise TokenError(f"the update token must be at least {MIN_TOKEN_LENGTH} characters without spaces "
                         "(for example: python3 -c 'import secrets; print(secrets.token_urlsafe(32))')")
    return token


class UpdateToken:
    """Checks the Authorization header of an update request against the token given at start (None: read-only)."""

    def __init__(self, token: str | None) -> None:
        self._token = checked_token(token)

    @property
    def enabled(self) -> bool:
        return self._token is not None

    def refusal(self, authorization: str | None) -> Answer | None:
        """None when the request may write, else the 401/403 answer to send."""
        if self._token is None:
            return Answer.error(403, "this server is read-only: start `claimgraph serve` with an update token to allow updates")
        scheme, _, credentials = (authorization or "").strip().partition(" ")
        if scheme.lower() != "bearer" or not credentials.strip():
            return Answer.error(401, "updates need an Authorization: Bearer <token> header",
                                {"WWW-Authenticate": 'Bearer realm="claimgraph"'})
        if not hmac.compare_digest(credentials.strip().encode("utf-8"), self._token.encode("utf-8")):
            return Answer.error(403, "the update token is wrong")
        return None
