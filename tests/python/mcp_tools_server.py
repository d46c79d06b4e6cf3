"""An MCP server written with the `mcp` Python SDK's MCPServer (FastMCP,
renamed in mcp 2), for tool-mcp's tests (tests/tool_mcp.rs).

Usage: mcp_tools_server.py stdio | streamable-http PORT

Its tools have the shapes FastMCP servers give most often: a typed return
(structured content with an output schema, plus the same as text), a dict,
plain text, an image, and a failure.
"""

import base64
import sys

from mcp.server.mcpserver import Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer("py-tools")


@server.tool()
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


@server.tool()
def forecast(city: str) -> dict:
    """The weather in a city, as a record."""
    return {"city": city, "celsius": 21, "sky": "clear"}


@server.tool(structured_output=False)
def greet(name: str) -> str:
    """Greets someone, in plain text."""
    return f"Hello, {name}!"


# A one-pixel red PNG.
RED_PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
)


@server.tool()
def pixel() -> Image:
    """A one-pixel red image."""
    return Image(data=RED_PIXEL, format="png")


@server.tool()
def explode() -> str:
    """Always fails, saying why (an unexpected exception's message is not sent)."""
    raise ToolError("the fuse was lit")


if __name__ == "__main__":
    if sys.argv[1] == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
