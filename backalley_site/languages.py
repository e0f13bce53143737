"""The languages of the top bar's switcher and of each page's ``hreflang`` alternates.

Pages keep one address in every language (no prefix): a page's alternates are its own
address with ``?lang=<code>`` (``backalley_site.middleware.LanguageQueryMiddleware``), and
``x-default`` is the bare address, which follows the visitor's choice or browser.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, QueryDict
from django.utils import translation


@dataclass(frozen=True)
class Language:
    code: str
    name: str  # in its own language: "Svenska"
    current: bool
    url: str  # this page in that language


def _path_in(request: HttpRequest, code: str | None) -> str:
    """This page's path and query, with ``lang`` set to ``code`` (or dropped for None)."""
    query: QueryDict = request.GET.copy()
    query.pop("lang", None)
    if code is not None:
        query["lang"] = code
    encoded = query.urlencode()
    return request.path + (f"?{encoded}" if encoded else "")


def languages(request: HttpRequest) -> dict[str, object]:
    current = translation.get_language() or settings.LANGUAGE_CODE
    return {
        "site_languages": [
            Language(
                code, name, code == current, request.build_absolute_uri(_path_in(request, code))
            )
            for code, name in settings.LANGUAGES
        ],
        "page_default_url": request.build_absolute_uri(_path_in(request, None)),
        # Where the switcher sends the person back to: this page, less any ?lang= override.
        "page_path": _path_in(request, None),
    }
