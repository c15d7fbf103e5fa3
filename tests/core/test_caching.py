"""One caching idiom: every process cache is a registered ``functools`` cache, cleared by one call.

These fail if a game keeps a cache of its own (a module dict, a cache keyed by
object identity) or if :func:`odds.core.caching.clear_caches` misses one: after
the call, the next analysis must recompute (its cached functions are called
again and fill again), and the answers must be the same.
"""

from __future__ import annotations

import ast
import pickle

import pytest

from odds.api import load
from odds.core.caching import cache_sizes, cached, clear_caches, hash_once
from tests.paths import ROOT


def _filled() -> dict[str, int]:
    return {name: n for name, n in cache_sizes().items() if n}


#: Among them the games tests/cli/test_attempts.py analyses before it forks its children
#: (which must print what a cold ``odds`` prints).
@pytest.mark.parametrize("game", ["baccarat", "dragon-tiger", "pok-deng"])
def test_clear_caches_makes_the_next_analysis_cold(game):
    paytable = load(game)
    first = paytable.analyse()
    assert _filled(), "the analysis cached nothing: is the game's cache registered?"
    clear_caches()
    assert _filled() == {}
    again = load(game).analyse()
    assert _filled(), "nothing was recomputed after clear_caches"
    assert [b.stats.ev for b in again.bets] == [b.stats.ev for b in first.bets]
    assert again == first  # every table and figure a report prints, not only the EVs


def test_blackjack_families_clear_with_everything_else():
    from odds.games.blackjack import nodes, shoes
    from odds.games.blackjack.rounds import analyse_round

    rules = load("blackjack").config.house
    counts = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
    ev = analyse_round(counts, rules).ev
    assert shoes.family(counts, False) is shoes.family(counts, False)
    kept = shoes.family(counts, False)
    shoes.forget_shoes()  # a "cold" bench run: the shoe's tables go, the layouts stay
    assert shoes.family(counts, False) is not kept
    assert nodes.context_groups.cache_info().currsize
    clear_caches()
    assert nodes.context_groups.cache_info().currsize == 0
    assert analyse_round(counts, rules).ev == ev


def test_cached_with_maxsize_is_bounded_and_cleared():
    calls: list[int] = []

    @cached(maxsize=2)
    def double(n: int) -> int:
        calls.append(n)
        return 2 * n

    assert [double(n) for n in (1, 2, 1, 3, 1)] == [2, 4, 2, 6, 2]
    assert calls == [1, 2, 3]
    assert double.cache_info().currsize == 2  # type: ignore[attr-defined]
    clear_caches()
    double(1)
    assert calls == [1, 2, 3, 1]


def test_hash_once_keeps_the_hash_out_of_the_pickle():
    config = load("blackjack").config  # a coded config (definitions build theirs)
    assert hash(config) == hash(config)
    assert "_hash" in vars(config)
    copy = pickle.loads(pickle.dumps(config))
    assert "_hash" not in vars(copy)
    assert copy == config and hash(copy) == hash(config)

    @hash_once
    class Plain:
        def __init__(self, n: int) -> None:
            self.n = n

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Plain) and other.n == self.n

        def __hash__(self) -> int:
            return hash(self.n)

    assert hash(Plain(3)) == hash(3)


def _module_caches(path) -> list[str]:
    """Module-level empty dicts (hand-rolled caches) and functools caches not made by ``cached``."""
    tree = ast.parse(path.read_text("utf-8"))
    found = []
    for node in tree.body:
        target = None
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            target, value = node.target.id, node.value
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            target, value = node.targets[0].id, node.value
        if (target and isinstance(value, ast.Dict) and not value.keys) or (
            target and isinstance(value, ast.Call) and ast.unparse(value.func) == "dict"
        ):
            found.append(target)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            for deco in node.decorator_list:
                text = ast.unparse(deco)
                if "lru_cache" in text or text in ("cache", "functools.cache"):
                    found.append(f"{node.name} (@{text})")
    return found


def test_no_module_keeps_a_cache_of_its_own():
    """Every process cache goes through ``odds.core.caching.cached`` (so one call clears it).

    Allowed: the game registry (``odds.games``: which games exist, not an answer to forget),
    a memo local to one call (decorated inside a function, gone when it returns), and the
    shoe simulation's per-worker context, which the parent hands to the workers it forks
    (:func:`odds.tools.shoe.simulate.prime`: a hand-off, not a cache a cold start must clear),
    and the paytable class of each definition (``_CONFIG_TYPES``: a type's identity, so that
    equal paytables of one game are equal whichever file or call read them; clearing it would
    make two classes of one game).
    """
    allowed = {
        "odds/games/__init__.py": [],
        "odds/tools/shoe/simulate.py": ["_CONTEXTS"],
        "odds/games/defined/registry.py": ["_CONFIG_TYPES"],
    }
    offenders = {}
    for path in sorted((ROOT / "odds").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name == "odds/games/__init__.py" or name == "odds/core/caching.py":
            continue
        found = [
            f
            for f in _module_caches(path)
            if f != "walk (@functools.cache)" and f not in allowed.get(name, [])
        ]
        if found:
            offenders[name] = found
    assert offenders == {}
