"""A tiny HTML tree for the guide's tests (standard library only)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SVG_VOID = {"circle", "line", "rect", "path"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)
    parent: Node | None = None

    def iter(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(self, predicate: Callable[[Node], bool]) -> list[Node]:
        return [node for node in self.iter() if predicate(node)]

    def select(self, tag: str | None = None, **attrs: str | bool) -> list[Node]:
        """Nodes with ``tag`` whose attributes match (True: present; a str: equal)."""

        def match(node: Node) -> bool:
            if tag is not None and node.tag != tag:
                return False
            for name, wanted in attrs.items():
                name = name.replace("_", "-")
                if wanted is True:
                    if name not in node.attrs:
                        return False
                elif node.attrs.get(name) != wanted:
                    return False
            return True

        return self.find_all(match)

    def one(self, tag: str | None = None, **attrs: str | bool) -> Node:
        found = self.select(tag, **attrs)
        assert len(found) == 1, (tag, attrs, len(found))
        return found[0]

    def text(self) -> str:
        parts: list[str] = []
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            elif child.tag not in ("script", "style"):
                parts.append(child.text())
        return " ".join(" ".join(parts).split())

    def texts(self) -> Iterator[str]:
        """Every text node (stripped, whitespace collapsed) outside scripts and styles."""
        for child in self.children:
            if isinstance(child, str):
                text = " ".join(child.split())
                if text:
                    yield text
            elif child.tag not in ("script", "style"):
                yield from child.texts()


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.current.children.append(Node(tag, {k: v or "" for k, v in attrs}, parent=self.current))

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root
