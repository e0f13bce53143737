"""The API's JSON parser: DRF's, plus the inputs that would otherwise end as a 500.

* Nesting deeper than Python's recursion limit raises ``RecursionError`` (not ``ValueError``)
  inside ``json.loads``; DRF lets it through.
* ``"\\u0000"`` and lone surrogates (``"\\ud800"``) are valid JSON but PostgreSQL and psycopg
  refuse them in text and ``jsonb``; they are refused here, once, for every endpoint.

Both become DRF's ``ParseError``, which the exception handler answers as ``malformed_json``.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")
# Far below the recursion limit, far above any body this API accepts.
MAX_DEPTH = 64


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON parse error - the document is nested too deeply.")) from None
        except LookupError:  # an unknown charset in the Content-Type
            raise ParseError(_("JSON parse error - unknown character set.")) from None
        _check(data, 0)
        return data


def _check(value: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise ParseError(
            _("JSON parse error - nested deeper than %(max_depth)s levels.")
            % {"max_depth": MAX_DEPTH}
        )
    if isinstance(value, str):
        if _UNSTORABLE.search(value):
            raise ParseError(_("JSON parse error - text holds a NUL or an unpaired surrogate."))
    elif isinstance(value, dict):
        for key, item in value.items():
            _check(key, depth + 1)
            _check(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check(item, depth + 1)
