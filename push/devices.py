"""A short name for a device, from its browser's User-Agent: "Firefox · Android".

Only names (of browsers and systems), no words to translate; an unknown browser keeps
what its User-Agent starts with.

>>> device_label("Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0")
'Firefox · Android'
>>> device_label("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
...              "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")
'Safari · iOS'
>>> device_label("")
''
"""

from __future__ import annotations

_BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iOS"),
    ("iPad", "iPadOS"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)


def device_label(user_agent: str) -> str:
    ua = " ".join(user_agent.split())
    if not ua:
        return ""
    browser = next((name for mark, name in _BROWSERS if mark in ua), "")
    system = next((name for mark, name in _SYSTEMS if mark in ua), "")
    if not browser:
        return ua[:60]
    return f"{browser} · {system}" if system else browser
