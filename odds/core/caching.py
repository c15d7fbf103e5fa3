"""One caching idiom: ``functools`` caches on pure functions, and one call that clears them all.

What a process may keep between analyses — a tableau's counting table, a
shoe's dealer tables, the bets a paytable offers — is the answer of a pure
function of options (frozen, hashable values: :mod:`odds.core.options`) and
counts (tuples). Each such function is decorated with :func:`cached`, which is
:func:`functools.cache` (or :func:`functools.lru_cache` with ``maxsize``
where an entry is large and the arguments many: a shoe's tables, say) and
registers it, so :func:`clear_caches` can return the process to a cold start:
``odds bench`` times cold runs with it, and tests that must not see an earlier
test's tables call it.

No module keeps a dict of its own answers, none keys by object identity and
none needs a ``_forget`` of its own.

>>> calls = []
>>> @cached
... def square(n: int) -> int:
...     calls.append(n)
...     return n * n
>>> square(3), square(3), calls
(9, 9, [3])
>>> clear_caches()
>>> square(3), calls
(9, [3, 3])
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, overload

R = TypeVar("R")


class _Clearable(Protocol):
    def cache_clear(self) -> None: ...


_REGISTERED: list[_Clearable] = []


@overload
def cached(function: Callable[..., R], /) -> functools._lru_cache_wrapper[R]: ...
@overload
def cached(
    *, maxsize: int | None = None
) -> Callable[[Callable[..., R]], functools._lru_cache_wrapper[R]]: ...
def cached(function: Callable[..., R] | None = None, /, *, maxsize: int | None = None) -> Any:
    """Remember ``function``'s answers (all of them, or the last ``maxsize``), clearable.

    The arguments must be hashable values (options, tuples of counts), never
    objects compared by identity. Use as ``@cached`` or ``@cached(maxsize=8)``.
    """

    def decorate(f: Callable[..., R]) -> functools._lru_cache_wrapper[R]:
        wrapped = functools.lru_cache(maxsize=maxsize)(f)
        _REGISTERED.append(wrapped)
        return wrapped

    return decorate(function) if function is not None else decorate


def clear_caches() -> None:
    """Forget every answer every :func:`cached` function keeps: a cold start for this process.

    A function registered later (its module imported after this call) starts
    empty anyway.
    """
    for function in _REGISTERED:
        function.cache_clear()


def cache_sizes() -> dict[str, int]:
    """How many answers each cached function keeps now, by qualified name (for tests, bench)."""
    sizes: dict[str, int] = {}
    for function in _REGISTERED:
        info = getattr(function, "cache_info", None)
        wrapped = getattr(function, "__wrapped__", function)
        name = f"{wrapped.__module__}.{getattr(wrapped, '__qualname__', '?')}"
        sizes[name] = sizes.get(name, 0) + (info().currsize if info else 0)
    return sizes


def hash_once(cls: type[Any]) -> type[Any]:
    """Give a frozen dataclass a hash computed once per object (a class decorator).

    A paytable's config keys the caches of the per-state EVs, which ask for it
    thousands of times; hashing every section's exact fractions each time costs
    more than the lookup saves. The value is kept on the object and left out
    of its pickle, so a worker process (whose string hashes differ) computes
    its own.
    """
    compute: Callable[[Any], int] | None = cls.__dict__.get("__hash__")
    if compute is None:  # pragma: no cover - a declaration error
        raise TypeError(f"{cls.__name__} is not hashable (declare it frozen)")

    def __hash__(self: Any) -> int:
        found = self.__dict__.get("_hash")
        if found is None:
            found = compute(self)
            object.__setattr__(self, "_hash", found)
        return int(found)

    def __getstate__(self: Any) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    setattr(cls, "__hash__", __hash__)  # noqa: B010 (mypy: a method assigned to a class)
    setattr(cls, "__getstate__", __getstate__)  # noqa: B010
    return cls
