"""Examples for every operation of the API, added to the OpenAPI description.

A post-processing hook (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``): the operations
that matter most to a client get hand-written examples (``EXAMPLES``); every other request
body and 2xx JSON answer gets one built from its own schema (field names, formats, enums and
bounds), so a new operation is never left without one. An operation whose description says
no more than its scope gets its summary as the first line.
"""

from __future__ import annotations

from typing import Any

HEX64 = "9f2c" * 16
# Hand-written examples by operationId: "request" (the body) and/or "response" (the 2xx JSON).
EXAMPLES: dict[str, dict[str, Any]] = {
    "v1_games_create": {
        "request": {
            "seats": [
                {"kind": "me"},
                {"kind": "bot", "name": "house-heuristic"},
                {"kind": "player", "name": "carol"},
                {"kind": "open"},
            ],
            "options": {"rated": True, "time_control": {"days_per_move": 3}},
        }
    },
    "v1_games_moves_create": {"request": {"action": {"card": "QH"}, "expected_seq": 42}},
    "v1_games_seats_create": {"request": {"position": 3}},
    "v1_games_events_retrieve": {
        "response": {
            "seq": 44,
            "status": "active",
            "events": [
                {"type": "play", "private_to": None, "seat": 1, "card": "KS", "seq": 43},
                {"type": "play", "private_to": None, "seat": 2, "card": "2S", "seq": 44},
                {
                    "type": "trick",
                    "private_to": None,
                    "leader": 3,
                    "cards": ["9S", "AS", "KS", "2S"],
                    "winner": 0,
                    "seq": 44,
                },
            ],
            "clock": None,
        }
    },
    "v1_games_legal_retrieve": {
        "response": {
            "seat": 2,
            "seq": 17,
            "to_act": 2,
            "actions": [{"card": "QH"}, {"card": "4H"}],
            "text": ["QH", "4H"],
        }
    },
    "v1_tokens_create": {"request": {"name": "my bot", "scopes": ["read", "play", "bot"]}},
    "v1_bots_create": {
        "request": {"name": "ada-bot", "kind": "hosted", "strategy": "heuristic", "params": {}}
    },
}

_BY_NAME: dict[str, Any] = {
    "id": "g_Q3xY8vK2mD",
    "public_id": "g_Q3xY8vK2mD",
    "name": "alice",
    "player": "alice",
    "username": "alice",
    "partner": "bob",
    "card": "QH",
    "upcard": "7D",
    "trump": "D",
    "code": "illegal_card",
    "message": "You must follow suit: you hold hearts.",
    "seed": None,
    "commitment": HEX64,
    "prefix": "bac_3kF9",
    "url": "https://bots.example.com/back-alley",
    "webhook_url": "https://bots.example.com/back-alley",
    "strategy": "heuristic",
    "description": "Bids from an estimate of its tricks and plays sensibly.",
    "rating": "1523.4120",
    "delta": "+11.8302",
    "seat": 0,
    "position": 0,
    "seq": 42,
    "to_act": 2,
    "deal_number": 7,
}
_FORMATS = {
    "date-time": "2026-11-30T20:15:00Z",
    "date": "2026-11-30",
    "uri": "https://example.com/",
    "email": "alice@example.com",
    "uuid": "5f0c1f7e-4c1d-4a57-9a53-3b1f4a3b9d10",
    "decimal": "1523.4120",
}


def _resolve(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = components.get(schema["$ref"].rsplit("/", 1)[-1], {})
    for key in ("allOf", "oneOf", "anyOf"):
        if schema.get(key):
            return _resolve(schema[key][0], components)
    return schema


def example_of(
    schema: dict[str, Any], components: dict[str, Any], name: str = "", depth: int = 0
) -> Any:
    """A plausible value for ``schema`` (field ``name`` helps: ids, names, cards)."""
    schema = _resolve(schema, components)
    if "example" in schema:
        return schema["example"]
    if "enum" in schema and schema["enum"]:
        return next((v for v in schema["enum"] if v is not None), None)
    if name in _BY_NAME and schema.get("type") != "array" and schema.get("type") != "object":
        return _BY_NAME[name]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        if depth > 4:
            return {}
        props = schema.get("properties") or {}
        return {k: example_of(v, components, k, depth + 1) for k, v in props.items()}
    if kind == "array":
        if depth > 5:
            return []
        return [example_of(schema.get("items") or {}, components, name, depth + 1)]
    if kind == "integer":
        return (
            max(schema.get("minimum", 1), 1)
            if "maximum" not in schema
            else schema.get("minimum", 0)
        )
    if kind == "number":
        return 1.5
    if kind == "boolean":
        return True
    if kind == "string":
        return _FORMATS.get(schema.get("format", ""), name.replace("_", " ") or "text")
    return {}


STREAM_EXAMPLES = {
    "text/event-stream": (
        'id: 43\nevent: play\ndata: {"type": "play", "private_to": null, "seat": 1, '
        '"card": "KS", "seq": 43}\n\n: keep-alive\n\n'
    ),
    "application/x-ndjson": (
        '{"type": "play", "private_to": null, "seat": 1, "card": "KS", "seq": 43}\n'
    ),
}


def _has_example(op: dict[str, Any]) -> bool:
    contents = [r.get("content") or {} for r in op.get("responses", {}).values()]
    contents.append((op.get("requestBody") or {}).get("content") or {})
    return any(m.get("examples") or m.get("example") for c in contents for m in c.values())


def _json(content: dict[str, Any] | None) -> dict[str, Any] | None:
    return (content or {}).get("application/json")


def add_examples(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    components = result.get("components", {}).get("schemas", {})
    for path, operations in result.get("paths", {}).items():
        for method, op in operations.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            given = EXAMPLES.get(op.get("operationId", ""), {})
            body = _json((op.get("requestBody") or {}).get("content"))
            if body is not None and not body.get("examples"):
                value = given.get("request", example_of(body.get("schema", {}), components))
                body["examples"] = {"example": {"summary": "An example", "value": value}}
            for code, response in op["responses"].items():
                if not str(code).startswith("2"):
                    continue
                media = _json(response.get("content"))
                if media is None or media.get("examples"):
                    continue
                value = given.get("response", example_of(media.get("schema", {}), components))
                media["examples"] = {"example": {"summary": "An example", "value": value}}
            for mt, media in (op["responses"].get("200", {}).get("content") or {}).items():
                if mt in STREAM_EXAMPLES and not media.get("examples"):
                    media["examples"] = {
                        "example": {"summary": "An example", "value": STREAM_EXAMPLES[mt]}
                    }
            text = (op.get("description") or "").strip()
            if not _has_example(op):
                # No body either way (a 204): the example is the request itself.
                sample = path.replace("{public_id}", "g_Q3xY8vK2mD").replace("{name}", "ada-bot")
                sample = sample.replace("{token_id}", "17").replace("{position}", "3")
                text = f"{text}\n\nExample: `{method.upper()} {sample}` answers 204 with no body."
            if not text or text.startswith("Scope:"):
                summary = op.get("summary") or f"{method.upper()} {path}"
                text = f"{summary}.\n\n{text}".strip()
            op["description"] = text
    return result
