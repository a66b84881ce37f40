"""A small MCP server for trying chatbot's tools: a clock, a calculator and a note store.

Over stdio (chatbot starts it)::

    chatbot --provider echo --mcp "python examples/mcp_server.py"

Over streamable HTTP (start it yourself, then point chatbot at its URL)::

    python examples/mcp_server.py --http 8000
    chatbot --mcp http://127.0.0.1:8000/mcp

Built with the official ``mcp`` SDK (``pip install 'chatbot[mcp]'``). The notes live in memory, per server process.
"""

from __future__ import annotations

import argparse
import ast
import operator
from datetime import datetime, timezone

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer("chatbot-example", instructions="A clock, a calculator and a note store.", log_level="WARNING")
_notes: dict[str, str] = {}

_OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}


def _evaluate(node: ast.AST) -> float:
    # Only numbers and arithmetic: never eval() what a model wrote.
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > 1000:
            raise ValueError("exponent too large")
        return _OPERATORS[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.operand))
    raise ValueError(f"not arithmetic: {ast.dump(node)[:60]}")


@server.tool()
def now(timezone_name: str = "UTC") -> str:
    """The current date and time (ISO 8601). Only "UTC" and "local" are known time zones."""
    if timezone_name.lower() == "local":
        return datetime.now().astimezone().isoformat(timespec="seconds")
    if timezone_name.upper() != "UTC":
        raise ToolError(f"unknown time zone {timezone_name!r}: use UTC or local")
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@server.tool()
def calculate(expression: str) -> str:
    """Evaluate an arithmetic expression: numbers, + - * / // % ** and parentheses."""
    try:
        return str(_evaluate(ast.parse(expression, mode="eval")))
    except (SyntaxError, ValueError, ArithmeticError) as exc:
        raise ToolError(f"cannot calculate {expression!r}: {exc}") from None


@server.tool()
def add_note(title: str, text: str) -> str:
    """Store a note under a title (replacing any note with that title)."""
    _notes[title] = text
    return f"saved note {title!r} ({len(_notes)} note(s) stored)"


@server.tool()
def list_notes() -> str:
    """The titles of the stored notes, one per line."""
    return "\n".join(sorted(_notes)) or "(no notes yet)"


@server.tool()
def read_note(title: str) -> str:
    """The text of the note with this title."""
    if title not in _notes:
        raise ToolError(f"no note titled {title!r}")
    return _notes[title]


def main() -> None:
    """Serve over stdio, or over streamable HTTP on 127.0.0.1 with ``--http PORT``."""
    parser = argparse.ArgumentParser(description="Example MCP server: clock, calculator, notes.")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP at http://127.0.0.1:PORT/mcp")
    args = parser.parse_args()
    if args.http is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host="127.0.0.1", port=args.http)


if __name__ == "__main__":
    main()
