"""Serializers for the accounts API (shapes only: the rules live in services)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounts.models import ApiToken, Player, Scope


class PlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name", "is_bot", "created_at"]


class TokenSerializer(serializers.ModelSerializer[ApiToken]):
    bot: serializers.SlugRelatedField[Player] = serializers.SlugRelatedField(
        slug_field="name", read_only=True, allow_null=True
    )
    active = serializers.BooleanField(source="is_active", read_only=True)
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=Scope.choices))

    class Meta:
        model = ApiToken
        fields = [
            "id",
            "name",
            "scopes",
            "bot",
            "prefix",
            "active",
            "created_at",
            "last_used_at",
            "revoked_at",
        ]


class TokenCreatedSerializer(TokenSerializer):
    token = serializers.CharField(
        help_text="The secret token. It is shown only in this response: keep it now."
    )

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "token"]


class TokenCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=100)
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=Scope.choices), allow_empty=False
    )
    bot = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="The name of one of your bots: the token then acts only for that bot.",
    )


class MeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(allow_null=True, help_text="Null for a token made for one bot.")
    username = serializers.CharField(
        allow_null=True, help_text="Null for a token made for one bot."
    )
    player = PlayerSerializer()
    bots = PlayerSerializer(many=True)
    auth = serializers.ChoiceField(choices=["session", "token"])
    scopes = serializers.ListField(child=serializers.CharField())
    token = TokenSerializer(allow_null=True)
    autoplay = serializers.BooleanField(
        help_text="Whether the service plays your forced actions (a single legal card) for you."
    )


class MePreferencesSerializer(serializers.Serializer[Any]):
    autoplay = serializers.BooleanField(
        required=False,
        help_text="Let the service play your forced actions for you (docs/rules.md §10).",
    )


class SignupSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, style={"input_type": "password"})
    name = serializers.CharField(max_length=30, help_text="Your public player name.")
    token_name = serializers.CharField(max_length=100, default="first token")
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=Scope.choices),
        allow_empty=False,
        default=["read", "play"],
    )


class SignupResultSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    player = PlayerSerializer()
    token = TokenCreatedSerializer()


class AccountDeleteSerializer(serializers.Serializer[Any]):
    password = serializers.CharField(
        write_only=True, style={"input_type": "password"}, help_text="Your password, to confirm."
    )


class AccountDeletedSerializer(serializers.Serializer[Any]):
    deleted = serializers.BooleanField()
    pseudonym = serializers.CharField(help_text="The name your finished games now show.")
