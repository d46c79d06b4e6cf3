"""Checks recorded request bodies against an official Python SDK's request
types: the `openai` package's Chat Completions or Responses params, or the
`anthropic` package's Messages params (TypedDicts, validated with pydantic).

Usage: check_requests.py openai|openai-responses|anthropic FILE

FILE holds one JSON request body per line. Every TypedDict of the SDK is
made to refuse keys it does not declare, so a misspelt or invented field
fails as surely as a wrong type. Prints each failure and exits 1 if any.
"""

import importlib
import json
import pkgutil
import sys
import typing

import typing_extensions

import pydantic


def forbid_extra_keys(package) -> None:
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        try:
            loaded = importlib.import_module(module.name)
        except ImportError:
            continue
        for value in vars(loaded).values():
            if isinstance(value, type) and (typing.is_typeddict(value) or typing_extensions.is_typeddict(value)):
                value.__pydantic_config__ = pydantic.ConfigDict(extra="forbid", arbitrary_types_allowed=True)


# What pydantic returns for an Iterable: its items are validated as it is iterated.
ValidatorIterator = type(pydantic.TypeAdapter(typing.Iterable[int]).validate_python([]))


class ResponseShape(Exception):
    pass


def consume(value) -> None:
    """pydantic validates an Iterable lazily: iterate every one, so its items
    are checked. A request part that fits only a response model (whose
    classes take any extra key; the SDKs accept them in requests too) fits
    no request type: that is a failure too."""
    if isinstance(value, pydantic.BaseModel):
        raise ResponseShape(f"{value!r} fits no request type, only the response type {type(value).__name__}")
    if isinstance(value, ValidatorIterator):
        for item in value:
            consume(item)
    elif isinstance(value, dict):
        for item in value.values():
            consume(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            consume(item)


def adapters(sdk: str):
    if sdk == "openai":
        import openai.types
        from openai.types.chat import completion_create_params as params

        forbid_extra_keys(openai.types)
        return params.CompletionCreateParamsStreaming, params.CompletionCreateParamsNonStreaming
    if sdk == "openai-responses":
        import openai.types
        from openai.types.responses import response_create_params as params

        forbid_extra_keys(openai.types)
        return params.ResponseCreateParamsStreaming, params.ResponseCreateParamsNonStreaming
    import anthropic.types
    from anthropic.types import message_create_params as params

    forbid_extra_keys(anthropic.types)
    return params.MessageCreateParamsStreaming, params.MessageCreateParamsNonStreaming


def main() -> None:
    sdk, path = sys.argv[1], sys.argv[2]
    streaming, plain = (pydantic.TypeAdapter(kind) for kind in adapters(sdk))
    failures = 0
    with open(path) as lines:
        for number, line in enumerate(lines, 1):
            body = json.loads(line)
            adapter = streaming if body.get("stream") else plain
            try:
                consume(adapter.validate_python(body))
            except (pydantic.ValidationError, ResponseShape) as error:
                failures += 1
                print(f"request {number} does not fit the {sdk} SDK's request type:\n{error}\n{line}")
    if failures:
        sys.exit(1)
    print(f"{sdk}: every request fits the SDK's request type")


main()
