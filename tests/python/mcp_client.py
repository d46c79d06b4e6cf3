"""An MCP client (the `mcp` SDK's stdio client) for `amplifier mcp-server`.

Usage: mcp_client.py AMPLIFIER_BINARY CALLS_JSON -- SERVER_ARGS...

Starts the server with the SDK's own stdio transport, lists its tools, makes
each call of CALLS_JSON ([{"name": ..., "arguments": {...}}]) in order, and
prints one JSON object: {"server": ..., "tools": [...], "calls": [...]}
(each call's text, and its images when it returned any).
The environment is passed on to the server whole (the test sets it).
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters, stdio_client


async def main() -> None:
    binary, calls = sys.argv[1], json.loads(sys.argv[2])
    server_args = sys.argv[sys.argv.index("--") + 1 :]
    params = StdioServerParameters(command=binary, args=server_args, env=dict(os.environ), cwd=os.getcwd())
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            listed = await session.list_tools()
            results = []
            for call in calls:
                try:
                    result = await session.call_tool(call["name"], call.get("arguments", {}))
                    printed = {
                        "is_error": bool(result.is_error),
                        "text": "".join(block.text for block in result.content if block.type == "text"),
                    }
                    images = [
                        {"mime_type": block.mime_type, "data": block.data}
                        for block in result.content
                        if block.type == "image"
                    ]
                    if images:
                        printed["images"] = images
                    results.append(printed)
                except Exception as error:  # a protocol error: the call was refused
                    results.append({"protocol_error": str(error)})
    print(
        json.dumps(
            {
                "server": initialized.server_info.name,
                "tools": [
                    {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema}
                    for tool in listed.tools
                ],
                "calls": results,
            }
        )
    )


asyncio.run(main())
