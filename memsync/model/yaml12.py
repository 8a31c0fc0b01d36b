"""Frontmatter YAML read as the client reads it (YAML 1.2 core schema), with hard bounds.

Claude Code parses frontmatter with Bun's YAML 1.2 parser: `2026-03-05`, ISO timestamps,
`yes`, `no`, `on` and `off` stay strings. PyYAML's default resolvers are YAML 1.1 and would
turn them into dates and booleans (and `datetime(...)` into every report). The loader here
composes nodes in Python (libyaml's composer recurses without a limit: 30,000 nested `[`
crashed the process; its event parser is a state machine and is kept) and bounds nesting
depth, alias expansion and input size, so hostile frontmatter is an ordinary parse error.
"""

from __future__ import annotations

from typing import Any, ClassVar

import yaml
from yaml.events import AliasEvent, CollectionStartEvent, ScalarEvent

from memsync.model.yamlfast import (  # the fast path; re-exported
    _BOOL,
    _FLOAT,
    _INT,
    _NULL,
    MAX_CHARS,
    MAX_NODES,
    NOT_SIMPLE,
    simple_mapping,
)

# Real frontmatter nests two or three levels (`metadata: {type: ...}`); 64 leaves room for
# anything a person writes and keeps the recursive composer far from Python's stack limit.
MAX_DEPTH = 64


class FrontmatterTooComplex(yaml.YAMLError):
    """Frontmatter over a depth, alias or size bound: reported like a syntax error."""

    def __init__(self, problem: str, line: int | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.line = line  # 0-based line of the frontmatter text, like PyYAML's marks


class _Resolver(yaml.resolver.BaseResolver):
    """The YAML 1.2 core schema: no timestamps, no `yes`/`no`/`on`/`off`, no merge keys."""


_Resolver.yaml_implicit_resolvers = {}
_Resolver.add_implicit_resolver("tag:yaml.org,2002:bool", _BOOL, list("tTfF"))
_Resolver.add_implicit_resolver("tag:yaml.org,2002:int", _INT, list("-+0123456789"))
_Resolver.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT, list("-+0123456789."))
_Resolver.add_implicit_resolver("tag:yaml.org,2002:null", _NULL, ["~", "n", "N", ""])


def _construct_int(loader: yaml.constructor.SafeConstructor, node: yaml.ScalarNode) -> int:
    value = str(loader.construct_scalar(node))
    if value.startswith("0o"):
        return int(value[2:], 8)
    if value.startswith("0x"):
        return int(value[2:], 16)
    return int(value)


def _construct_bool(loader: yaml.constructor.SafeConstructor, node: yaml.ScalarNode) -> bool:
    return str(loader.construct_scalar(node)).lower() == "true"


def _construct_text(loader: yaml.constructor.SafeConstructor, node: yaml.ScalarNode) -> str:
    # An explicit `!!timestamp` tag: keep the text, a date is never a Python object here.
    return str(loader.construct_scalar(node))


class _Constructor(yaml.constructor.SafeConstructor):
    """SafeConstructor with YAML 1.2 spellings of ints and booleans, and no dates."""

    yaml_constructors: ClassVar[dict[Any, Any]] = {
        **yaml.constructor.SafeConstructor.yaml_constructors,
        "tag:yaml.org,2002:int": _construct_int,
        "tag:yaml.org,2002:bool": _construct_bool,
        "tag:yaml.org,2002:timestamp": _construct_text,
    }


class _Composer(yaml.composer.Composer):
    """The composer with a bound on nesting depth and on nodes after alias expansion."""

    def compose_document(self) -> Any:
        self._depth = 0
        self._expanded = 0
        self._sizes: dict[str, int] = {}
        return super().compose_document()

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()  # type: ignore[attr-defined]  # from the parser mixin
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise FrontmatterTooComplex(
                    f"nested more than {MAX_DEPTH} levels deep", event.start_mark.line
                )
            before = self._expanded
            node = super().compose_node(parent, index)
            if isinstance(event, AliasEvent):
                self._expanded += self._sizes.get(str(event.anchor), 1)
            else:
                self._expanded += 1
                if isinstance(event, (ScalarEvent, CollectionStartEvent)) and event.anchor:
                    self._sizes[str(event.anchor)] = self._expanded - before
            if self._expanded > MAX_NODES:
                raise FrontmatterTooComplex(
                    f"more than {MAX_NODES:,} values once aliases are expanded",
                    event.start_mark.line,
                )
            return node
        finally:
            self._depth -= 1


class PureLoader(
    yaml.reader.Reader,
    yaml.scanner.Scanner,
    yaml.parser.Parser,
    _Composer,
    _Constructor,
    _Resolver,
):
    """A safe, bounded, YAML 1.2 core-schema loader, all in Python."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        _Composer.__init__(self)
        _Constructor.__init__(self)
        _Resolver.__init__(self)


def _loader_class() -> type[Any]:
    """libyaml's event parser (a state machine, no recursion) under the bounded composer."""
    try:
        from yaml._yaml import CParser
    except ImportError:  # pragma: no cover - PyYAML built without libyaml
        return PureLoader

    class FastLoader(_Composer, _Constructor, _Resolver, CParser):
        """PureLoader's composer and schema over libyaml's events (five times faster)."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            _Composer.__init__(self)
            _Constructor.__init__(self)
            _Resolver.__init__(self)

    return FastLoader


_LOADER = _loader_class()


def load(text: str) -> Any:
    """Parse one YAML document as the client does; raises yaml.YAMLError (bounds included)."""
    if len(text) > MAX_CHARS:
        raise FrontmatterTooComplex(f"over {MAX_CHARS:,} characters", 0)
    simple = simple_mapping(text)
    if simple is not NOT_SIMPLE:
        return simple
    loader = _LOADER(text)
    try:
        return loader.get_single_data()
    except RecursionError:  # pragma: no cover - the depth bound comes first
        raise FrontmatterTooComplex("nested too deeply", 0) from None
    except yaml.MarkedYAMLError as exc:
        # libyaml 0.2.5 and newer (PyYAML 6.0.4's wheels) stop at 1,000 levels while scanning,
        # before the composer sees the first node: say it as the composer's bound does.
        if "maximum nesting depth" not in str(exc.problem):
            raise
        line = exc.problem_mark.line if exc.problem_mark else 0
        raise FrontmatterTooComplex(f"nested more than {MAX_DEPTH} levels deep", line) from None
    except (ValueError, TypeError, OverflowError) as exc:
        # A value the schema accepts but Python cannot build (an unhashable key, a huge int).
        raise FrontmatterTooComplex(f"unreadable value ({exc})"[:200], 0) from None
    finally:
        loader.dispose()
