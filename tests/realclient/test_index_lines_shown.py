"""What the client loads of the index lines consolidate keeps (docs/CONSOLIDATION.md, Index):
a link out of the memory folder, a memory's second line, a memory named only in code and a
long line of prose all reach the model as written. Claude Code parses no link in MEMORY.md
and limits only the whole index, so memsync must not drop or flag these as if it did."""

from __future__ import annotations

import pytest

from testing.claude_sites import first_context

pytestmark = pytest.mark.realclient

# Lines from real folders (tests/test_consolidate_index_lines.py gives each one's source).
LINES = (
    "- [All plans (299 on disk)](../../../plans/INDEX.md) — auto-generated; date-sorted; "
    "full file list outside MEMORY.md cap",
    "- [DB Design Entscheidungen](db_design_entscheidungen.md) — Tabellen, Multi-Shop, "
    "Varianten, Lizenzmodell, Features Barbara (aktualisiert 2026-06-12)",
    "- [WooCommerce Sync Design](db_design_entscheidungen.md) — Kategorie-Sync (voller Pfad, "
    "Blatt-ID am Artikel), Kanal-Chips berechnet, ein geteilter Baum für…",
    "- See `project_deployment_architecture.md` — livingintel.ai is the product, "
    "wealth.tigerai.tech is FROZEN (JPM internal, don't touch)",
    "- **MAJOR: Multi-agent content pipeline v2** — all decisions locked. Session plan at "
    "`docs/session-by-session-plan.md`. Architecture at `docs/pipeline-v2-architecture-review"
    ".md`. Opus 4.6 for Writer+Evaluator. Full source text (no compression).",
)


def test_the_client_shows_every_line_consolidate_keeps(site) -> None:
    a = site("alice-laptop")
    (a.memory / "MEMORY.md").write_text("# Memory\n\n" + "\n".join(LINES) + "\n", "utf-8")
    _, requests = a.session()
    context = first_context(requests)
    for line in LINES:
        assert line in context, (line, context)
