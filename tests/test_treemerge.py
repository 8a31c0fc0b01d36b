"""Tree-level merge: pure merge_trees on path -> bytes maps."""

from __future__ import annotations

import os
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.merge.tree import TreeMergeResult, detect_renames, merge_trees
from memsync.model.index import parse_index
from memsync.model.memory import parse_memory

EXAMPLES = 1000 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 100


def mem(name: str, body: str, description: str | None = None) -> bytes:
    head = f"---\nname: {name}\ndescription: {description or name}\ntype: project\n---\n"
    return (head + body).encode()


def index(*names: str, folder_prefix: str = "") -> bytes:
    return (
        "# Memory\n" + "".join(f"- [{n}]({folder_prefix}{n}.md) — {n}\n" for n in names)
    ).encode()


def both_ways(
    base: Mapping[str, bytes],
    ours: Mapping[str, bytes],
    theirs: Mapping[str, bytes],
    t_ours: int = 10,
    t_theirs: int = 20,
) -> TreeMergeResult:
    times_o = dict.fromkeys(ours, t_ours)
    times_t = dict.fromkeys(theirs, t_theirs)
    one = merge_trees(base, ours, theirs, ours_times=times_o, theirs_times=times_t)
    two = merge_trees(base, theirs, ours, ours_times=times_t, theirs_times=times_o)
    assert one.files == two.files
    assert set(one.decisions) == set(two.decisions)
    return one


def targets(data: bytes) -> list[str]:
    return parse_index(data).targets


BASE = {"p/MEMORY.md": index("a", "b"), "p/a.md": mem("a", "A\n"), "p/b.md": mem("b", "B\n")}


def test_one_sided_changes_need_no_merge() -> None:
    theirs = {**BASE, "p/c.md": mem("c", "C\n")}
    result = both_ways(BASE, BASE, theirs)
    assert result.files == theirs and result.changed == ("p/c.md",)


def test_delete_versus_modify_keeps_file_and_its_index_entry() -> None:
    ours = {"p/MEMORY.md": index("a"), "p/a.md": BASE["p/a.md"]}
    theirs = {**BASE, "p/b.md": mem("b", "B\nmore\n"), "p/a.md": mem("a", "A\nA2\n")}
    result = both_ways(BASE, ours, theirs)
    assert result.files["p/b.md"] == theirs["p/b.md"]
    assert targets(result.files["p/MEMORY.md"]) == ["a.md", "b.md"]
    assert [d.kind for d in result.decisions] == ["delete-modify"]


def test_deleted_memory_leaves_the_index_even_if_the_other_side_edited_the_index() -> None:
    ours = {"p/MEMORY.md": BASE["p/MEMORY.md"], "p/a.md": BASE["p/a.md"]}  # forgot the index
    theirs = {**BASE, "p/MEMORY.md": index("a", "b", "c"), "p/c.md": mem("c", "C\n")}
    result = both_ways(BASE, ours, theirs)
    assert "p/b.md" not in result.files
    assert targets(result.files["p/MEMORY.md"]) == ["a.md", "c.md"]


def test_add_add_of_different_memories_keeps_both_and_indexes_both() -> None:
    ours = {**BASE, "p/c.md": mem("c", "C\n"), "p/MEMORY.md": index("a", "b", "c")}
    theirs = {**BASE, "p/c.md": mem("other", "O\n")}  # theirs did not index it
    result = both_ways(BASE, ours, theirs)
    assert result.files["p/c.md"] == ours["p/c.md"]
    assert result.files["p/c-2.md"] == theirs["p/c.md"]
    assert result.renamed == (("p/c.md", "p/c-2.md"),)
    assert targets(result.files["p/MEMORY.md"]) == ["a.md", "b.md", "c.md", "c-2.md"]
    assert "- [other](c-2.md) — other" in result.files["p/MEMORY.md"].decode()


def test_add_add_renamed_side_entry_follows_its_memory() -> None:
    ours = {**BASE, "p/c.md": mem("c", "C\n"), "p/MEMORY.md": index("a", "b", "c")}
    theirs = {
        **BASE,
        "p/c.md": mem("zed", "Z\n"),
        "p/MEMORY.md": index("a", "b") + b"- [zed](c.md) - zed hook\n",
    }
    result = both_ways(BASE, ours, theirs, 10, 20)
    lines = result.files["p/MEMORY.md"].decode().splitlines()
    assert lines[-2:] == ["- [c](c.md) — c", "- [zed](c-2.md) - zed hook"]


def test_team_subfolder_has_its_own_index() -> None:
    base = {**BASE, "p/team/MEMORY.md": index("t"), "p/team/t.md": mem("t", "T\n")}
    ours = {**base, "p/team/u.md": mem("u", "U\n"), "p/team/MEMORY.md": index("t", "u")}
    theirs = {**base, "p/team/u.md": mem("v", "V\n"), "p/team/MEMORY.md": index("t", "u")}
    result = both_ways(base, ours, theirs)
    assert targets(result.files["p/team/MEMORY.md"]) == ["t.md", "u.md", "u-2.md"]
    assert result.files["p/MEMORY.md"] == BASE["p/MEMORY.md"]


def test_rename_on_one_side_edit_on_the_other_lands_on_the_new_name() -> None:
    ours = {"p/MEMORY.md": index("a", "bee"), "p/a.md": BASE["p/a.md"], "p/bee.md": BASE["p/b.md"]}
    theirs = {**BASE, "p/b.md": mem("b", "B\nedited\n")}
    result = both_ways(BASE, ours, theirs)
    assert "p/b.md" not in result.files
    assert result.files["p/bee.md"] == theirs["p/b.md"]
    assert targets(result.files["p/MEMORY.md"]) == ["a.md", "bee.md"]


def test_a_field_both_changed_across_a_rename_goes_to_the_newer_change() -> None:
    """A merge review: A renamed b.md and reworded its description at 10:00, B reworded it
    at 11:00 under the old name; A's older wording won, B's time being filed under b.md."""
    ours = {
        "p/MEMORY.md": index("a", "bee"),
        "p/a.md": BASE["p/a.md"],
        "p/bee.md": mem("b", "B\n", description="alice wording"),
    }
    theirs = {**BASE, "p/b.md": mem("b", "B\nmore\n", description="bob wording")}
    for t_ours, t_theirs, wording in ((10, 20, "bob wording"), (30, 20, "alice wording")):
        result = both_ways(BASE, ours, theirs, t_ours=t_ours, t_theirs=t_theirs)
        merged = parse_memory(result.files["p/bee.md"])
        assert merged.description == wording
        assert merged.body.endswith("B\nmore\n")
        assert "p/b.md" not in result.files


def test_a_memory_consolidation_archived_keeps_the_other_sides_edit_live() -> None:
    """An import review: consolidation merged b.md into another memory and moved it to
    archive/; a teammate's new line in b.md followed that "rename" into archive/, where
    Claude never reads it. A retired memory edited elsewhere is kept live, as a delete."""
    ours = {"p/MEMORY.md": index("a"), "p/a.md": BASE["p/a.md"], "p/archive/b.md": BASE["p/b.md"]}
    theirs = {**BASE, "p/b.md": mem("b", "B\nSlot 5: Finn reviews security changes.\n")}
    result = both_ways(BASE, ours, theirs)
    assert result.files["p/b.md"] == theirs["p/b.md"]
    assert result.files["p/archive/b.md"] == BASE["p/b.md"]
    assert any(
        "deleted on one side and changed on the other" in str(d) for d in result.decisions
    ), result.decisions
    # Without an edit on the other side the retirement stands.
    quiet = both_ways(BASE, ours, BASE)
    assert "p/b.md" not in quiet.files and quiet.files["p/archive/b.md"] == BASE["p/b.md"]


def test_rename_on_both_sides_keeps_the_newer_name() -> None:
    ours = {**BASE, "p/b.md": b"", "p/MEMORY.md": BASE["p/MEMORY.md"]}
    del ours["p/b.md"]
    ours["p/b-ours.md"] = mem("b", "B\nfrom ours\n")
    theirs = {k: v for k, v in BASE.items() if k != "p/b.md"}
    theirs["p/b-theirs.md"] = mem("b", "B\n", "theirs desc")
    result = both_ways(BASE, ours, theirs, 10, 20)
    memories = sorted(p for p in result.files if not p.endswith("MEMORY.md"))
    assert memories == ["p/a.md", "p/b-theirs.md"]
    merged = parse_memory(result.files["p/b-theirs.md"])
    assert merged.description == "theirs desc" and "from ours" in merged.body
    assert [d.kind for d in result.decisions] == ["rename-rename"]


def test_binary_files_keep_both() -> None:
    base = {"p/x.bin": b"\0base"}
    result = both_ways(base, {"p/x.bin": b"\0ours"}, {"p/x.bin": b"\0theirs"})
    assert set(result.files.values()) == {b"\0ours", b"\0theirs"}


def test_detect_renames_exact_and_similar() -> None:
    base = {"a.md": b"same\n", "b.md": b"one\ntwo\nthree\nfour\n"}
    side = {"x.md": b"same\n", "y.md": b"one\ntwo\nthree\nfive\n"}
    assert detect_renames(base, side) == {"a.md": "x.md", "b.md": "y.md"}


def client_mem(name: str, description: str, body: str) -> bytes:
    """A memory as Claude Code 2.1.330 writes it: `type` nested under `metadata:`, stamped."""
    head = (
        f"---\nname: {name}\ndescription: {description}\nmetadata:\n  node_type: memory\n"
        "  type: project\n  originSessionId: 4d1f0c2e-8a8b-4a51-9d7e-1c2b3a4d5e6f\n"
        "  modified: 2026-11-26T09:00:00.000Z\n---\n\n"
    )
    return (head + body + "\n").encode()


DEPLOY = client_mem("deploy", "release train", "Deploys go out on Fridays via the release train.")
PNPM = client_mem("pnpm", "package manager", "This repo uses pnpm, never npm or yarn.")
PORTS = client_mem("ports", "dev ports", "The API listens on 8080, the web app on 3000.")


def test_unrelated_memories_of_one_type_are_no_rename() -> None:
    """Two short memories of one type share most lines (`---`, `metadata:`, `  type: project`):
    a helper's sync run found B's edit of deploy.md merged into A's new pnpm.md, deploy.md gone
    (SPEC 4: deleted on one side, changed on the other, the changed version stays)."""
    assert detect_renames({"p/deploy.md": DEPLOY}, {"p/pnpm.md": PNPM}) == {}
    # The review of that fix: the client's `node_type` stamp, and empty descriptions
    blank = [client_mem(n, '""', b) for n, b in (("deploy", "Fridays."), ("pnpm", "Use pnpm."))]
    assert detect_renames({"p/deploy.md": blank[0]}, {"p/pnpm.md": blank[1]}) == {}
    edited = DEPLOY.replace(b"train.", b"train, never after 3pm.")
    result = both_ways({"p/deploy.md": DEPLOY}, {"p/pnpm.md": PNPM}, {"p/deploy.md": edited})
    assert result.files == {"p/pnpm.md": PNPM, "p/deploy.md": edited}
    # Both sides delete one memory and each adds its own: two memories, not one
    result = both_ways({"p/old.md": DEPLOY}, {"p/pnpm.md": PNPM}, {"p/ports.md": PORTS})
    assert result.files == {"p/pnpm.md": PNPM, "p/ports.md": PORTS}


def test_a_renamed_memory_is_still_found_by_what_it_says() -> None:
    renamed = DEPLOY.replace(b"name: deploy", b"name: release-train")
    assert detect_renames({"p/deploy.md": DEPLOY}, {"p/release-train.md": renamed}) == {
        "p/deploy.md": "p/release-train.md"
    }
    bare = b"---\nmetadata:\n  type: project\n---\n"  # says nothing: no evidence either way
    assert detect_renames({"p/a.md": bare}, {"p/b.md": bare + b"\n"}) == {}


NAMES = st.sampled_from(["p/a.md", "p/b.md", "p/c.md", "p/team/d.md", "p/x.txt"])
CONTENT = st.sampled_from([mem("a", "A\n"), mem("b", "B\n"), mem("a", "A\nA2\n"), b"line\n"])
TREE = st.dictionaries(NAMES, CONTENT, max_size=4)


@settings(max_examples=EXAMPLES, deadline=None)
@given(TREE, TREE, TREE, st.booleans())
def test_tree_merge_is_symmetric(
    base: dict[str, bytes], ours: dict[str, bytes], theirs: dict[str, bytes], with_index: bool
) -> None:
    if with_index:
        for tree in (base, ours, theirs):
            tree["p/MEMORY.md"] = index(*sorted(p[2:-3] for p in tree if p.endswith(".md")))
    result = both_ways(base, ours, theirs, 1, 1)
    assert merge_trees(base, ours, ours).files == ours
    assert merge_trees(base, base, ours).files == ours
    assert result.changed == tuple(
        sorted(p for p in {*ours, *result.files} if ours.get(p) != result.files.get(p))
    )


def test_a_file_and_a_folder_of_one_name_keep_both() -> None:
    # F11: `c.md` a memory on one side, `c.md/` a folder of memories on the other. A tree cannot
    # hold both, so the file moves to the next free name, its index entry with it.
    ours = {**BASE, "p/c.md": mem("c", "C\n"), "p/MEMORY.md": index("a", "b", "c")}
    theirs = {**BASE, "p/c.md/inner.md": mem("inner", "I\n")}
    result = both_ways(BASE, ours, theirs)
    assert "p/c.md" not in result.files
    assert result.files["p/c.md/inner.md"] == theirs["p/c.md/inner.md"]
    assert result.files["p/c-2.md"] == ours["p/c.md"]
    assert result.renamed == (("p/c.md", "p/c-2.md"),)
    assert targets(result.files["p/MEMORY.md"]) == ["a.md", "b.md", "c-2.md"]
    [decision] = result.decisions
    assert decision.kind == "file-folder-both-kept"
    assert decision.kept == "p/c-2.md"
    assert decision.detail.endswith("share the name c.md; kept both, the file as c-2.md")


def test_names_differing_only_by_case_added_on_two_sides_keep_both() -> None:
    # `Deploy.md` added on one machine, `deploy.md` on the other: one file on macOS and
    # Windows. The older keeps its name, the newer moves to the next free name, index line too.
    ours = {**BASE, "p/deploy.md": mem("deploy", "Ours\n")}
    ours["p/MEMORY.md"] = index("a", "b", "deploy")
    theirs = {**BASE, "p/Deploy.md": mem("Deploy", "Theirs\n")}
    result = both_ways(BASE, ours, theirs)  # ours at 10, older: it keeps its name
    assert result.files["p/deploy.md"] == ours["p/deploy.md"]
    assert result.files["p/Deploy-2.md"] == theirs["p/Deploy.md"]
    assert "p/Deploy.md" not in result.files
    assert result.renamed == (("p/Deploy.md", "p/Deploy-2.md"),)
    [decision] = result.decisions
    assert decision.kind == "case-twins-both-kept"
    assert decision.detail == (
        "deploy.md and Deploy.md differ only by case (one file on macOS and Windows);"
        " kept both, the newer as Deploy-2.md"
    )
    newer_ours = both_ways(BASE, ours, theirs, 30, 20)
    assert newer_ours.files["p/deploy-2.md"] == ours["p/deploy.md"]
    assert targets(newer_ours.files["p/MEMORY.md"]) == ["a.md", "b.md", "deploy-2.md"]
    # A free name that is itself a case twin of a taken one is not free.
    taken = {**theirs, "p/DEPLOY-2.md": mem("x", "X\n")}
    assert "p/Deploy-3.md" in both_ways(BASE, ours, taken).files
