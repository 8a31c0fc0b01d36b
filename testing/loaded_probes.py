"""MEMORY.md texts and what the real Claude Code 2.1.330 loaded of each.

Every expected text is what the client put in the model's context for that MEMORY.md (probed
against a loopback Messages API stand-in; docs/CONSOLIDATION.md, "What Claude Code loads")."""

from __future__ import annotations

PROBED = {
    "blocks": (
        "START\n<!-- a\nb -->\n\n\nx1\n<!-- c --> tail\nx2 <!-- inline -->\n```\n<!-- fenced -->"
        "\n```\n- item\n  <!-- nested -->\n<!-- after list -->\n> quote\n<!-- after quote -->\n"
        "    <!-- indented -->\n<div>\n<!-- in div -->\n</div>\n\nEND",
        "START\nx1\n tail\nx2 <!-- inline -->\n```\n<!-- fenced -->\n```\n- item\n"
        "  <!-- nested -->\n> quote\n    <!-- indented -->\n<div>\n<!-- in div -->\n</div>\n\nEND",
    ),
    "crlf": ("START\r\n<!-- c -->\r\nx\r\nEND", "START\nx\nEND"),
    "unterminated": ("START\nx\n<!-- open\ny\nz END", "START\nx\n<!-- open\ny\nz END"),
    "immediate": ("START\n<!--> a\n<!---> b\nEND", "START\n<!--> a\n<!---> b\nEND"),
    "spaces line": ("START\n<!-- c -->\n   \nx\nEND", "START\n   \nx\nEND"),
    "indented after text": ("START\n   <!-- c -->\nx\nEND", "START\n   <!-- c -->\nx\nEND"),
    "indented after blank": ("START\n\n   <!-- c -->\nx\nEND", "START\n\nx\nEND"),
    "under an item": ("START\n- item\n <!-- c -->\nx\nEND", "START\n- item\nx\nEND"),
    "in an item": (
        "START\n- item\n\n  <!-- c -->\nx\nEND",
        "START\n- item\n\n  <!-- c -->\nx\nEND",
    ),
    "ordered": (
        "START\n1. item\n   <!-- c -->\n  <!-- d -->\nEND",
        "START\n1. item\n   <!-- c -->\nEND",
    ),
    "two on a line": ("START\n<!-- a --> mid <!-- b -->\nEND", "START\n mid \nEND"),
    "tilde fence": (
        "START\n~~~\n<!-- t -->\n~~~\n<!-- u -->\nEND",
        "START\n~~~\n<!-- t -->\n~~~\nEND",
    ),
    "open fence": ("START\n```\n<!-- t -->\nEND", "START\n```\n<!-- t -->\nEND"),
    "span after text": ("START\npara\n<span>\n<!-- c -->\nx\nEND", "START\npara\n<span>\nx\nEND"),
    "span block": ("START\n\n<span>\n<!-- c -->\nx\nEND", "START\n\n<span>\n<!-- c -->\nx\nEND"),
    "div after text": (
        "START\npara\n<div>\n<!-- c -->\nx\nEND",
        "START\npara\n<div>\n<!-- c -->\nx\nEND",
    ),
    "tab": ("START\n\t<!-- c -->\nEND", "START\n\t<!-- c -->\nEND"),
    "heading": ("START\n# h <!-- c -->\n<!-- d -->\n## e\nEND", "START\n# h <!-- c -->\n## e\nEND"),
    "after quote": ("START\n> q\n<!-- c -->\nx\nEND", "START\n> q\nx\nEND"),
    "fence in item": ("START\n- a\n  ```\n<!-- c -->\n  ```\nEND", "START\n- a\n  ```\n  ```\nEND"),
    "before setext": ("START\n<!-- c -->\n---\nx\nEND", "START\n---\nx\nEND"),
    "first line": ("<!-- c -->\nSTART\nEND", "START\nEND"),
    "frontmatter": ("---\ntitle: x\n---\nSTART\nbody END", "START\nbody END"),
    "frontmatter closed mid-line": ("---\na: b ---\nSTART\nEND", "START\nEND"),
    "frontmatter after a BOM": ("\ufeff---\na: b\n---\nSTART\nEND", "START\nEND"),
    "not at the start": ("x\n---\na: b\n---\nSTART\nEND", "x\n---\na: b\n---\nSTART\nEND"),
    "after a blank line": ("\n---\na: b\n---\nSTART\nEND", "---\na: b\n---\nSTART\nEND"),
    "only one rule": ("---\nSTART\nEND", "---\nSTART\nEND"),
}
