"""Dates and times in the active language, for every template (a builtin library).

``{{ deadline|when }}``: the site's short date and time (backalley_site/formats/<lang>/);
``{{ deadline|from_now }}``: "in 3 hours", "2 days ago", from the site's own catalogs
(Django's own humanize strings are missing or broken in some of our languages).
"""

from __future__ import annotations

from datetime import datetime

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

register = template.Library()


@register.filter
def when(value: datetime | None) -> str:
    """The short date and time in the active language's format: "Tue 1 Dec, 14:30"."""
    if value is None:
        return ""
    return str(date_filter(value, "SHORT_DATETIME_FORMAT"))


@register.filter
def day(value: datetime | None) -> str:
    if value is None:
        return ""
    return str(date_filter(value, "SHORT_DATE_FORMAT"))


def from_now(value: datetime | None, now: datetime | None = None) -> str:
    """How far ``value`` is from now, in words: "in 3 hours", "5 minutes ago", "just now"."""
    if value is None:
        return ""
    now = now or timezone.now()
    seconds = int((value - now).total_seconds())
    ahead = seconds > 0
    left = abs(seconds)
    if left < 45:
        return _("just now")
    if left < 3600:
        n = max(1, round(left / 60))
        if ahead:
            return ngettext("in %(count)s minute", "in %(count)s minutes", n) % {"count": n}
        return ngettext("%(count)s minute ago", "%(count)s minutes ago", n) % {"count": n}
    if left < 86400:
        n = max(1, round(left / 3600))
        if ahead:
            return ngettext("in %(count)s hour", "in %(count)s hours", n) % {"count": n}
        return ngettext("%(count)s hour ago", "%(count)s hours ago", n) % {"count": n}
    n = max(1, round(left / 86400))
    if ahead:
        return ngettext("in %(count)s day", "in %(count)s days", n) % {"count": n}
    return ngettext("%(count)s day ago", "%(count)s days ago", n) % {"count": n}


register.filter("from_now", from_now)
