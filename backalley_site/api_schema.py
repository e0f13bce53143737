"""Pieces of the OpenAPI description shared by every app."""

from __future__ import annotations

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """The one error shape: use in ``extend_schema(responses={400: ErrorSerializer, ...})``."""

    code = serializers.CharField(help_text="A stable identifier, e.g. 'illegal_card'.")
    message = serializers.CharField(help_text="An explanation for people.")
    extra = serializers.DictField(help_text="Details that depend on the code.")
