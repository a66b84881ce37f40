"""A JSON schema's references, resolved within the schema and never fetched, and the shapes nothing can check.

A ``$ref`` may name any URL; jsonschema, given no registry, fetches one it does not hold (with no timeout). A
schema comes from a cloned folder or a stored session as easily as from the user, so here nothing is fetched: every
reference must lead within the schema itself (or to a draft's own meta-schema, which jsonschema ships), the check
before any use says which one does not, and :func:`no_fetch` is the registry every check validates with, in case one
slips by. A reference that loops back to where it started without reading any of the value (``{"$ref": "#"}``)
would never end, and a schema or a value nested past :data:`MAX_DEPTH` levels would overflow the stack: both are
found here, without recursion, before jsonschema is given them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from chatbot.engine.options import MAX_DEPTH as OPTION_DEPTH

#: how deeply lists and objects may nest in a schema, a reply or tool arguments that are checked (a real schema
#: needs a handful; jsonschema's checks recurse a few calls a level, and Python's stack is about a thousand deep)
MAX_DEPTH = OPTION_DEPTH - 2  # a schema is sent two levels down in the response_format option
#: the keywords whose schema applies to the very value being checked (not to a part of it): a loop through them
#: alone never reaches the end of the value
_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_MANY = ("allOf", "anyOf", "oneOf")
_REFERENCES = ("$ref", "$dynamicRef", "$recursiveRef")


def _refuse(uri: str) -> Any:
    from referencing.exceptions import NoSuchResource

    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # (an attrs class: mypy misses its fields)


@cache
def no_fetch() -> Any:
    """The registry to validate with (jsonschema's ``registry=``): the drafts' meta-schemas, which jsonschema adds,
    and nothing else; a reference to anything more is unresolvable, never fetched."""
    from referencing import Registry

    return Registry(retrieve=_refuse)  # type: ignore[call-arg]  # (jsonschema's default registry would fetch it, with no timeout)


def nesting(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (0 for a scalar), counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Mapping):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def depth_problem(value: Any) -> str:
    """ "" when ``value`` nests at most :data:`MAX_DEPTH` levels, else how deep it is ("nested 40 levels deep, ...")."""
    depth = nesting(value)
    return f"nested {depth} levels deep, more than the {MAX_DEPTH} a check can take" if depth > MAX_DEPTH else ""


def reference_problem(schema: Mapping[str, Any]) -> str:
    """What keeps the references of ``schema`` from being followed safely, or "": one that leads outside the schema
    (a URL: nothing is fetched), or a loop of references that reads nothing of the value. The schema must nest at
    most :data:`MAX_DEPTH` levels."""
    from jsonschema_specifications import REGISTRY  # the drafts' own schemas, which jsonschema resolves too
    from referencing.exceptions import Unresolvable
    from referencing.jsonschema import DRAFT202012, specification_with

    dialect = schema.get("$schema")
    spec = specification_with(dialect, default=DRAFT202012) if isinstance(dialect, str) else DRAFT202012
    root = spec.create_resource(dict(schema))
    resolver = no_fetch().combine(REGISTRY).resolver_with_root(root)
    edges: dict[int, list[int]] = {}  # a schema -> the schemas of this schema that apply to the same value
    pending: list[tuple[Any, Any]] = [(root.contents, resolver)]
    while pending:
        node, resolver = pending.pop()
        if id(node) in edges:
            continue
        edges[id(node)] = []
        resource = spec.create_resource(node)
        resolver = resolver.in_subresource(resource)
        for ref in (node[k] for k in _REFERENCES if isinstance(node.get(k), str)):
            try:
                resolved = resolver.lookup(ref)
            except Unresolvable:
                return f"it refers to {ref!r}, which cannot be resolved (a reference can only lead within the schema)"
            if isinstance(resolved.contents, Mapping):
                edges[id(node)].append(id(resolved.contents))
                pending.append((resolved.contents, resolved.resolver))
        edges[id(node)].extend(id(sub) for sub in _in_place(node))
        pending.extend((sub.contents, resolver) for sub in resource.subresources() if isinstance(sub.contents, Mapping))
    if _has_loop(edges):
        return "a reference leads back to itself without reading any of the value, so no check would ever end"
    return ""


def _in_place(node: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The subschemas of ``node`` that apply to the value ``node`` applies to."""
    for key in _IN_PLACE_ONE:
        if isinstance(node.get(key), Mapping):
            yield node[key]
    for key in _IN_PLACE_MANY:
        if isinstance(node.get(key), list):
            yield from (s for s in node[key] if isinstance(s, Mapping))
    if isinstance(node.get("dependentSchemas"), Mapping):
        yield from (s for s in node["dependentSchemas"].values() if isinstance(s, Mapping))


def _has_loop(edges: dict[int, list[int]]) -> bool:
    """Whether the graph ``edges`` has a cycle (depth-first, with an explicit stack)."""
    done: set[int] = set()
    for start in edges:
        if start in done:
            continue
        path: set[int] = {start}
        stack = [(start, iter(edges.get(start, ())))]
        while stack:
            node, targets = stack[-1]
            target = next(targets, None)
            if target is None:
                stack.pop()
                path.discard(node)
                done.add(node)
            elif target in path:
                return True
            elif target not in done:
                path.add(target)
                stack.append((target, iter(edges.get(target, ()))))
    return False
