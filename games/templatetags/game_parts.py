"""``{% game_parts game %}``: what listening apps registered to show with a game.

Each registered part (``games.extensions``) that has something to say about the game is
rendered with the template ``game_parts/<name>.html`` (owned by the app that registered
it, with the part's data as ``part``); a part without a template shows nothing.
"""

from __future__ import annotations

from django import template
from django.template.loader import get_template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

from games import extensions
from games.models import Game

register = template.Library()


@register.simple_tag(takes_context=True)
def game_parts(context: template.Context, game: Game) -> SafeString:
    rendered = []
    for name, data in extensions.game_parts(game).items():
        if data is None:
            continue
        try:
            tmpl = get_template(f"game_parts/{name}.html")
        except template.TemplateDoesNotExist:
            continue
        rendered.append((mark_safe(tmpl.render({"part": data}, context.get("request"))),))
    return format_html_join("", "{}", rendered)
