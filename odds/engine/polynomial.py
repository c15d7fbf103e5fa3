"""One polynomial type: a bet's ways as a polynomial in falling factorials of the counts.

Why one type
------------
Every exact count the games make from a composition ``c`` (``N`` cards, one
count per type) is a sum over multisets ``m`` of types of *falling
factorials* ``FF_m(c) = ∏_t (c_t)_{m_t}``: an ordered sequence of cards with
multiset ``m`` is dealt in ``FF_m(c)`` ways, and two unordered hands ``A``
then ``B`` in ``FF_{A+B}(c) / (A! B!)`` ways. What the rules decide — which
card orders finish a coup with which outcome, what a pair of hands pays, what
a charted blackjack round wins — is a table of integer coefficients that does
not depend on the shoe. So baccarat's tableau, Dragon Tiger's round, the
two-hand bets of Pok Deng and Mahjong 2-8 and a charted blackjack round are
all one object, :class:`FallingPolynomial`, built once per rule set and
evaluated for any number of compositions (the full shoe for the report,
every state a dealt shoe passes through for the shoe-state questions)::

    numerator_k(c) = Σ_i C[i, k] · FF_{m_i}(c) · (N − |m_i|)_{x_i}   (+ a class form, below)
    value_k(c)     = numerator_k(c) / (scale · (N)_L)

Row ``i`` is a multiset ``m_i`` (a row of :attr:`~FallingPolynomial.exponents`)
with an integer coefficient per key ``k`` (a bet, an event, an outcome class).
The *extension* ``x_i`` lets deals of different lengths share one denominator:
an ordered deal of ``|m|`` cards is extended by the next ``L − |m|`` unseen
cards (``x_i = L − |m_i|``, ``extended=True``), so every key counts ordered
sequences of ``L`` cards — the convention of the published baccarat tables.
Unextended rows (``x_i = 0``) are plain monomials over ``(N)_L``: the
two-hand form. ``scale`` clears the denominators of fractional payouts.

The class form (many types)
---------------------------
For two hands from 52 card types the plain table has 341,055 rows. When the
payoff depends only on the hands' *classes*, most of it is a quadratic form
in the class weights ``W_X(c) = Σ_{A ∈ X} ∏_t C(c_t, a_t)``, and the
polynomial is ``(h!)² Σ_{X,Y} P_k[X, Y] W_X W_Y`` plus a sparse correction for
hands sharing a type (:func:`two_hand_polynomial`, *factored* form). The class
form is part of the type: every evaluation below includes it.

Three evaluations behind one interface
--------------------------------------
* :meth:`~FallingPolynomial.numerators` / :meth:`~FallingPolynomial.ways` /
  :meth:`~FallingPolynomial.fractions`: exact integers. numpy ``int64`` when a
  bound proves that no partial sum can overflow (:meth:`~FallingPolynomial.int64_safe`);
  otherwise the Chinese remainder theorem over enough primes below ``2^31``
  (each prime one ``int64`` pass). Exact either way; a batch of compositions
  (rows) is one call.
* :meth:`~FallingPolynomial.residues`: the numerators modulo a prime ``p <
  2^31`` in ``int64`` (what the exact path recombines; tests compare it with
  the exact value mod ``p``).
* :meth:`~FallingPolynomial.approximate`: double precision with a rigorous
  error bound, ``|value − exact| ≤ bound`` (a simulation decides by the float
  and asks the exact value only when the sign is in doubt).

All three share one evaluation plan, worked out once per polynomial: every
row's ``FF_m(c)`` from a small table of ``(c_t)_j``, either through the
distinct products of each half of the types (a charted blackjack round has
~700,000 rows but a few thousand distinct halves) or by one gather per type a
row uses (sparse rows over 52 types), whichever takes fewer operations; then
one dot product per key. Totals are checked: the keys of every declared
*group* (one bet's events) add up to the denominator exactly, on every exact
evaluation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import partial
from math import comb, factorial, lcm
from typing import Any, Generic, TypeVar

from odds.core.caching import cached
from odds.engine.counting import hands as engine_hands

K = TypeVar("K", bound=Hashable)
C = TypeVar("C", bound=Hashable)

#: ``((type, multiplicity), …)``, types increasing: a sparse multiset of types.
Monomial = tuple[tuple[int, int], ...]
#: Largest bound under which ``int64`` sums of signed terms cannot overflow.
INT64_SAFE = 2**62
#: Primes below ``2^31`` for modular evaluation (a product of two residues fits in ``int64``).
PRIMES = (
    2147483647,
    2147483629,
    2147483587,
    2147483579,
    2147483563,
    2147483549,
    2147483543,
    2147483497,
    2147483489,
    2147483477,
    2147483423,
    2147483399,
)
#: Rows per chunk of a modular dot product: 2^15 terms below 2^47 sum below 2^62.
_MOD_CHUNK = 1 << 15


def falling(n: int, k: int) -> int:
    """The falling factorial ``n (n − 1) … (n − k + 1)``: 1 for ``k = 0``, 0 when ``0 ≤ n < k``.

    The one definition the project uses (a polynomial in ``n``: for negative
    ``n`` it is the product as written).

    >>> falling(5, 2), falling(5, 0), falling(1, 2)
    (20, 1, 0)
    """
    result = 1
    for i in range(k):
        result *= n - i
    return result


def falling_row(n: int, k: int) -> list[int]:
    """``[(n)_0, (n)_1, …, (n)_k]``, one multiplication each.

    >>> falling_row(4, 3)
    [1, 4, 12, 24]
    """
    row = [1]
    for i in range(k):
        row.append(row[-1] * (n - i))
    return row


def hand_groups(hand: Sequence[int]) -> list[tuple[int, int]]:
    """``(type, multiplicity)`` of a sorted hand: its sparse multiset.

    >>> hand_groups((0, 0, 3))
    [(0, 2), (3, 1)]
    """
    found: list[tuple[int, int]] = []
    for t in hand:
        if found and found[-1][0] == t:
            found[-1] = (t, found[-1][1] + 1)
        else:
            found.append((t, 1))
    return found


def gather_product(table: Any, columns: Any) -> Any:
    """``∏_k table[..., columns[:, k]]``: one gather per factor (faster than a reduce)."""
    values = table[..., columns[:, 0]]
    for k in range(1, columns.shape[1]):
        values = values * table[..., columns[:, k]]
    return values


class _ClassForm:
    """The factored form's quadratic part: ``mult · Σ_{X,Y} P_k[X, Y] W_X(c) W_Y(c)``.

    ``W_X`` is the number of ways to deal one hand of class ``X``: a sum of
    binomial products over the class's hands. Hands are sorted by class, so
    the class sums are one ``reduceat``.
    """

    def __init__(
        self,
        hands: Sequence[tuple[int, ...]],
        classes: Sequence[int],
        matrix: Sequence[Sequence[Sequence[int]]],
        hand_size: int,
    ) -> None:
        import numpy as np

        order = sorted(range(len(hands)), key=lambda i: classes[i])
        sorted_classes = [classes[i] for i in order]
        starts = [
            i for i in range(len(order)) if i == 0 or sorted_classes[i] != sorted_classes[i - 1]
        ]
        self.terms = [hand_groups(hands[i]) for i in order]
        self.columns: Any = None  # laid out by the evaluation plan (it knows the table's width)
        self.starts = np.array(starts, dtype=np.intp)
        self.matrix = np.array(matrix, dtype=object)  # keys × classes × classes
        self.hand_size = hand_size
        self.mult = factorial(hand_size) ** 2
        self.classes = len(starts)
        self.largest_class = max(
            (b - a for a, b in zip(starts, [*starts[1:], len(order)], strict=True)), default=0
        )
        self.max_abs = max((abs(int(v)) for v in self.matrix.flat), default=0)
        self._matrices: dict[Any, Any] = {}
        self._flat: Any = None

    def lay_out(self, width: int) -> None:
        """Each hand's factor positions in a flattened table of ``width`` entries per type."""
        import numpy as np

        size = max((len(m) for m in self.terms), default=0)
        self.columns = np.array(
            [[t * width + j for t, j in m] + [0] * (size - len(m)) for m in self.terms],
            dtype=np.intp,
        ).reshape(len(self.terms), size)

    def bound(self, size: int) -> int:
        """``Σ |terms| ≤ mult · max|P| · (Σ_X W_X)²`` and ``Σ_X W_X = C(N, h)``."""
        return self.mult * self.max_abs * comb(size, self.hand_size) ** 2

    def weights(self, binomials: Any) -> Any:
        """``W_X(c)`` per class (last axis), from the flattened binomial table."""
        import numpy as np

        return np.add.reduceat(gather_product(binomials, self.columns), self.starts, axis=-1)

    def _typed(self, dtype: Any) -> Any:
        found = self._matrices.get(dtype)
        if found is None:
            found = self._matrices[dtype] = self.matrix.astype(dtype)
        return found

    def int64(self, binomials: Any) -> Any:
        """The form in ``int64``: every key's ``w P_k`` (one ``einsum`` over a (classes ×
        keys·classes) copy of the matrices), then its product with ``w``: two passes, not
        the three-operand ``einsum``'s nested loop (a Dragon Tiger shoe's 200 states over
        52 classes and 12 keys: 2.9 ms, not 4.7)."""
        import numpy as np

        w = self.weights(binomials)
        if self._flat is None:
            keys, classes = self.matrix.shape[0], self.classes
            flat = self._typed(np.int64).transpose(1, 0, 2).reshape(classes, keys * classes)
            self._flat = np.ascontiguousarray(flat)
        products = np.einsum("...x,xz->...z", w, self._flat)
        products = products.reshape(*w.shape[:-1], -1, self.classes)
        return np.einsum("...ky,...y->...k", products, w) * self.mult

    def floats(self, binomials: Any) -> tuple[Any, Any]:
        """The form in double precision, and the same sum of absolute values (for the bound)."""
        import numpy as np

        w = self.weights(binomials)
        matrix = self._typed(np.float64)
        value = np.einsum("...x,kxy,...y->...k", w, matrix, w) * self.mult
        absolute = np.einsum("...x,kxy,...y->...k", np.abs(w), np.abs(matrix), np.abs(w))
        return value, absolute * self.mult

    def steps(self) -> int:
        """Roundings along any one term's path (see :meth:`FallingPolynomial.approximate`)."""
        h = self.hand_size
        return 2 * h * h + h + self.largest_class + self.classes**2 + 4

    def residues(self, binomials: Any, p: int) -> Any:
        import numpy as np

        w = self.weights_mod(binomials, p)
        matrix = self._matrices.get(p)
        if matrix is None:
            matrix = self._matrices[p] = (self.matrix % p).astype(np.int64)
        # Σ_{x,y} w_x P[x, y] w_y: (w @ P) mod p, then an elementwise product and a sum.
        found = [
            ((_matmul_mod(w, matrix[k], p) * w) % p).sum(axis=-1) % p
            for k in range(matrix.shape[0])
        ]
        return np.stack(found, axis=-1) * (self.mult % p) % p

    def weights_mod(self, binomials: Any, p: int) -> Any:
        import numpy as np

        values = binomials[..., self.columns[:, 0]]
        for k in range(1, self.columns.shape[1]):
            values = values * binomials[..., self.columns[:, k]] % p
        # Class sums: at most a few thousand terms below 2^31 each.
        return np.add.reduceat(values, self.starts, axis=-1) % p


def _matmul_mod(a: Any, b: Any, p: int) -> Any:
    """``a @ b mod p`` for int64 arrays of residues (< 2^31), without overflow.

    ``b`` is split into 16-bit halves: a product is below ``2^47`` and
    ``2^15`` of them below ``2^62``, so each chunk is an exact ``int64`` product.
    """

    low, high = b & 0xFFFF, b >> 16
    inner = a.shape[-1]
    result = None
    for start in range(0, max(inner, 1), _MOD_CHUNK):
        part_a = a[..., start : start + _MOD_CHUNK]
        lo = (part_a @ low[start : start + _MOD_CHUNK]) % p
        hi = (part_a @ high[start : start + _MOD_CHUNK]) % p
        part = (hi * 65536 + lo) % p
        result = part if result is None else (result + part) % p
    assert result is not None
    return result


class FallingPolynomial(Generic[K]):
    """Exact counts of every key as a polynomial in falling factorials of the counts.

    See the module docstring for the definition. Build with
    :func:`falling_polynomial` (from a table of multisets),
    :func:`odds.engine.drawing.ordered_deal_polynomial` (a deal procedure) or
    :func:`two_hand_polynomial` (two hands and a payoff); evaluate with
    :meth:`ways` (exact integers per key), :meth:`fractions`, :meth:`approximate`
    (floats with a bound) or :meth:`residues` (mod a prime), for one
    composition or, with :meth:`numerators`, a batch.

    ``exponents`` (rows × types, small ints) and ``coefficients`` (rows ×
    keys, ``int64``) are the table; ``extension`` the per-row ``x_i``;
    ``groups`` the key indices whose values add up to the denominator (each
    checked on every exact evaluation).
    """

    def __init__(
        self,
        types: int,
        keys: Sequence[K],
        exponents: Any,
        coefficients: Any,
        *,
        extended: bool,
        length: int | None = None,
        scale: int = 1,
        groups: Iterable[Iterable[int]] = (),
        class_form: _ClassForm | None = None,
    ) -> None:
        import numpy as np

        exponents = np.asarray(exponents, dtype=np.int64).reshape(-1, types)
        coefficients = np.asarray(coefficients)
        if coefficients.dtype == object and any(abs(int(v)) >= 2**63 for v in coefficients.flat):
            raise ValueError("a coefficient does not fit in int64")
        coefficients = coefficients.astype(np.int64).reshape(len(exponents), len(keys))
        if len(exponents) and int(exponents.min()) < 0:
            raise ValueError("negative exponent")
        self.types = types
        self.keys: tuple[K, ...] = tuple(keys)
        self.scale = scale
        sizes = exponents.sum(axis=1)
        natural = int(sizes.max()) if len(sizes) else 0
        if class_form is not None:
            natural = max(natural, 2 * class_form.hand_size)
        self.length = natural if length is None else length
        if self.length < natural:
            raise ValueError(f"length {self.length} below the table's degree {natural}")
        self.extended = extended
        extension = self.length - sizes if extended else np.zeros_like(sizes)
        small = np.int8 if not len(exponents) or int(exponents.max()) < 128 else np.int16
        self.exponents = exponents.astype(small)
        self.coefficients = coefficients
        self.extension = extension
        self.groups = tuple(tuple(g) for g in groups)
        self.class_form = class_form
        self._sizes = sizes
        self._plan: _Plan | None = None
        self._residue_coefficients: dict[int, Any] = {}
        self._extension_cache: dict[tuple[int, int | str | None], list[Any]] = {}

    # -- shape ----------------------------------------------------------------

    @property
    def rows(self) -> int:
        """Number of rows (multisets) in the sparse table."""
        return len(self.coefficients)

    def denominator(self, size: int) -> int:
        """``scale · (N)_L``: the common denominator of every key for ``N = size`` cards."""
        return self.scale * falling(size, self.length)

    def total(self, counts: Sequence[int]) -> int:
        """:meth:`denominator` of a composition (what a group of keys adds up to)."""
        return self.denominator(sum(counts))

    # -- exact ------------------------------------------------------------------

    def bound(self, size: int) -> int:
        """An upper bound of ``Σ |terms|`` for any key and any composition of ``size`` cards.

        A row contributes ``|C| · FF_m(c) · (N − |m|)_x ≤ |C| · (N)_{|m| + x}``
        (``FF_m(c)`` ordered sequences of multiset ``m`` are among the
        ``(N)_{|m|}`` sequences of that length), so the bound is
        ``Σ_d S_d · (N)_d`` with ``S_d`` the largest coefficients of the rows
        of degree ``d``, plus the class form's. Every partial sum of an
        evaluation is below it.
        """
        plan = self._evaluation_plan()
        found = sum(s * falling(size, d) for d, s in plan.largest_by_degree)
        if self.class_form is not None:
            found += self.class_form.bound(size)
        return found

    def int64_safe(self, size: int) -> bool:
        """Whether exact ``int64`` evaluation cannot overflow for ``size`` cards.

        When every coefficient is non-negative and every key lies in a checked
        group, each key's value (and every partial sum) is at most the
        denominator; otherwise :meth:`bound` decides.
        """
        plan = self._evaluation_plan()
        if plan.grouped_nonnegative and self.class_form is None:
            return self.denominator(size) < 2**63
        return self.bound(size) < INT64_SAFE

    def numerators(self, counts: Sequence[int] | Any) -> Any:
        """Exact numerators per key (last axis) of one composition or a batch (rows).

        ``int64`` when :meth:`int64_safe` holds for every size in the batch,
        else Python integers (object array) recombined from :meth:`residues`.
        value = numerator / :meth:`denominator` of the same composition.
        """
        import numpy as np

        c = self._counts(counts)
        sizes = c.sum(axis=-1)
        largest = int(sizes.max()) if sizes.size else 0
        if self.int64_safe(largest):
            return self._int64(c)
        limit = 2 * self.bound(largest) + 1
        moduli: list[int] = []
        residues: list[Any] = []
        modulus = 1
        for p in _primes():
            if modulus > limit:
                break
            residues.append(self._residues(c, p))
            moduli.append(p)
            modulus *= p
        flat = [r.reshape(-1) for r in residues]
        values = np.empty(flat[0].shape, dtype=object)
        for i in range(len(values)):
            value = _crt([int(r[i]) for r in flat], moduli)
            values[i] = value - modulus if value > modulus // 2 else value
        return values.reshape(residues[0].shape)

    def ways(self, counts: Sequence[int]) -> dict[K, int]:
        """Exact numerator of every key for one composition; every group's total checked."""
        values = [int(v) for v in self.numerators(counts)]
        if self.groups:
            expected = self.total(counts)
            for group in self.groups:
                found = sum(values[j] for j in group)
                if found != expected:
                    raise AssertionError(f"ways add up to {found}, expected {expected}")
        return dict(zip(self.keys, values, strict=True))

    def fractions(self, counts: Sequence[int]) -> dict[K, Fraction]:
        """Exact value of every key (numerator over the denominator) for one composition."""
        size = sum(counts)
        if size < self.length:
            raise ValueError(f"a composition of {size} cards cannot deal {self.length}")
        denominator = self.denominator(size)
        return {k: Fraction(v, denominator) for k, v in self.ways(counts).items()}

    # -- modular and floating point ---------------------------------------------

    def residues(self, counts: Sequence[int] | Any, p: int) -> Any:
        """The numerators modulo a prime ``p < 2^31`` (``int64``; per key on the last axis)."""
        if not 2 <= p < 2**31:
            raise ValueError("the modulus must be below 2^31")
        return self._residues(self._counts(counts), p)

    def approximate(self, counts: Sequence[int]) -> dict[K, tuple[float, float]]:
        """``{key: (value, bound)}`` in double precision, ``|value − exact value| ≤ bound``.

        Rigorous in the standard model of floating-point arithmetic (every
        operation rounds with relative error ``u = 2^-53``): a term's falling
        factorials, product, extension quotient and coefficient take at most
        ``3L + T + 2`` roundings (``L`` the length, ``T`` the types), and a sum
        of ``R`` terms adds ``R``; the error is at most ``γ_n Σ |terms|`` with
        ``γ_n ≤ 2 n u`` (``n u ≤ ½``), which is the bound (``2^-52 · n · Σ|terms|``).
        The class form's terms are bounded the same way.
        """
        values, bounds = self._floats(self._counts(counts))
        return {k: (float(v), float(b)) for k, v, b in zip(self.keys, values, bounds, strict=True)}

    # -- rewriting ----------------------------------------------------------------

    def regroup(
        self, assign: Callable[[K], Iterable[Hashable]], partitions: Iterable[Iterable[Hashable]]
    ) -> FallingPolynomial[Any]:
        """Merge keys into new keys: key ``k`` counts towards every key in ``assign(k)``.

        A key may feed several new keys (one event of each bet). ``partitions``
        lists the groups of new keys that each account for every deal exactly
        once (a bet's events); they are checked on every exact evaluation.
        """
        import numpy as np

        if self.class_form is not None:
            raise ValueError("a factored polynomial cannot be regrouped")
        new_keys: dict[Hashable, int] = {}
        sources, targets = [], []
        for j, key in enumerate(self.keys):
            for new in assign(key):
                sources.append(j)
                targets.append(new_keys.setdefault(new, len(new_keys)))
        mapping = np.zeros((len(self.keys), len(new_keys)), dtype=np.int64)
        np.add.at(
            mapping, (np.array(sources, dtype=np.int64), np.array(targets, dtype=np.int64)), 1
        )
        groups = tuple(
            tuple(new_keys[k] for k in partition if k in new_keys) for partition in partitions
        )
        return FallingPolynomial(
            self.types,
            tuple(new_keys),
            self.exponents,
            self.coefficients @ mapping,
            extended=self.extended,
            length=self.length,
            scale=self.scale,
            groups=groups,
        )

    def invariant_blocks(self, full: Sequence[int]) -> list[list[int]]:
        """Types the polynomial treats alike: blocks on which every permutation keeps every key.

        Only types with the same ``full`` count are exchanged (the shoe's
        states must be exchanged too). A transposition ``(i j)`` is kept when
        it maps the table onto itself; the blocks are the connected components
        of the kept transpositions (they generate the full symmetric group on
        each block). Exact: the falling-factorial basis is a basis, so two
        polynomials are equal exactly when their tables are. The factored form
        reports no symmetry.
        """
        types = self.types
        parent = list(range(types))

        def root(i: int) -> int:
            while parent[i] != i:
                i = parent[i]
            return i

        if self.class_form is None:
            table = {
                (tuple(e), int(x)): tuple(c)
                for e, x, c in zip(
                    self.exponents.tolist(),
                    self.extension.tolist(),
                    self.coefficients.tolist(),
                    strict=True,
                )
            }
            for i in range(types):
                for j in range(i + 1, types):
                    if full[i] != full[j] or root(i) == root(j):
                        continue
                    if all(table.get((_swapped(e, i, j), x)) == k for (e, x), k in table.items()):
                        parent[root(j)] = root(i)
        blocks: dict[int, list[int]] = defaultdict(list)
        for t in range(types):
            blocks[root(t)].append(t)
        return sorted(blocks.values())

    # -- the evaluation plan ------------------------------------------------------

    def _counts(self, counts: Sequence[int] | Any) -> Any:
        import numpy as np

        c = np.asarray(counts, dtype=np.int64)
        if c.shape[-1:] != (self.types,):
            raise ValueError(f"expected {self.types} counts, got {c.shape[-1:]}")
        if c.size and int(c.min()) < 0:
            raise ValueError("negative count in a composition")
        return c

    def _evaluation_plan(self) -> _Plan:
        if self._plan is None:
            self._plan = _Plan(self)
        return self._plan

    def _table(self, c: Any, dtype: Any, p: int | None = None) -> Any:
        """``(c_t)_j`` for every type and ``j < width``, flattened per composition."""
        import numpy as np

        width = self._evaluation_plan().width
        table = np.ones((*c.shape, width), dtype=dtype)
        values = c.astype(dtype)
        for j in range(1, width):
            step = values - (j - 1)
            if p is None:
                table[..., j] = table[..., j - 1] * step
            else:
                table[..., j] = table[..., j - 1] * (step % p) % p
        return table.reshape(*c.shape[:-1], c.shape[-1] * width)

    def _binomials(self, c: Any, dtype: Any, p: int | None = None) -> Any:
        """``C(c_t, j)`` for every type and ``j < width``, flattened (the class form's table).

        From the falling factorials by exact division (``int64`` while
        ``(c)_j`` fits, Python integers beyond), then reduced mod ``p`` or
        converted to ``dtype``.
        """
        import numpy as np

        width = self._evaluation_plan().width
        largest = int(c.max()) if c.size else 0
        exact_dtype: Any = np.int64 if falling(largest, width - 1) < 2**62 else object
        table = np.ones((*c.shape, width), dtype=exact_dtype)
        values = c.astype(exact_dtype)
        for j in range(1, width):
            table[..., j] = table[..., j - 1] * (values - (j - 1))
        for j in range(2, width):
            table[..., j] //= factorial(j)
        if p is not None:
            table = table % p
        return table.astype(dtype).reshape(*c.shape[:-1], c.shape[-1] * width)

    def _extensions(self, sizes: Any, plan: _Plan, p: int | None = None) -> Any:
        """``(N − s)_x`` for every extension class ``(s, x)`` (last axis), exact or mod ``p``."""
        import numpy as np

        rows = [self._extension_row(n, p) for n in sizes.reshape(-1).tolist()]
        return np.array(rows, dtype=np.int64).reshape(*sizes.shape, len(plan.extensions))

    def _extension_row(self, n: int, kind: int | str | None) -> list[Any]:
        """One size's extension factors, kept: a shoe's states repeat their sizes.

        ``kind`` is ``None`` (exact), a prime (residues) or ``"float"`` (the
        quotients ``(N − s)_x / (N)_L``, each rounded once).
        """
        key = (n, kind)
        found = self._extension_cache.get(key)
        if found is None:
            pairs = self._evaluation_plan().extensions
            if kind == "float":
                found = [_float_extension(n, s, x, self.length) for s, x in pairs]
            elif kind is None:
                found = [falling(n - s, x) for s, x in pairs]
            else:
                found = [falling(n - s, x) % int(kind) for s, x in pairs]
            if len(self._extension_cache) > 65536:
                self._extension_cache.clear()
            self._extension_cache[key] = found
        return found

    def _int64(self, c: Any) -> Any:
        import numpy as np

        plan = self._evaluation_plan()
        weights = plan.products(self._table(c, np.int64))
        if self.extended:
            weights = weights * _gather(
                self._extensions(c.sum(axis=-1), plan), plan.extension_index
            )
        result = plan.dot(weights)
        if self.class_form is not None:
            result = result + self.class_form.int64(self._binomials(c, np.int64))
        return result

    def _residues(self, c: Any, p: int) -> Any:
        import numpy as np

        plan = self._evaluation_plan()
        weights = plan.products(self._table(c, np.int64, p), p)
        if self.extended:
            extensions = self._extensions(c.sum(axis=-1), plan, p)
            weights = weights * _gather(extensions, plan.extension_index) % p
        coefficients = self._residue_coefficients.get(p)
        if coefficients is None:
            coefficients = self._residue_coefficients[p] = plan.coefficients % p
        result = _matmul_mod(weights, coefficients, p)
        if self.class_form is not None:
            result = (result + self.class_form.residues(self._binomials(c, np.int64, p), p)) % p
        return result

    def _floats(self, c: Any) -> tuple[Any, Any]:
        import numpy as np

        plan = self._evaluation_plan()
        if c.ndim == 1 and len(self.keys) == 1 and self.class_form is None:
            grouped = plan.grouped()
            if grouped is not None:
                return self._grouped_floats(c, grouped)
        values = plan.products(self._table(c, np.float64))
        sizes = c.sum(axis=-1)
        quotient = np.array(
            [self._extension_row(n, "float") for n in sizes.reshape(-1).tolist()]
        ).reshape(*sizes.shape, len(plan.extensions))
        values = values * _gather(quotient, plan.extension_index)
        coefficients, absolute = plan.float_coefficients()
        if len(self.keys) == 1:
            # Elementwise products and a sum, not a BLAS dot: no thread start-up per call.
            value = np.sum(values * coefficients[:, 0], axis=-1)[..., None]
            magnitude = np.sum(np.abs(values) * absolute[:, 0], axis=-1)[..., None]
        else:
            value = values @ coefficients
            magnitude = np.abs(values) @ absolute
        steps = 3 * self.length + self.types + 2 + self.rows
        bound = steps * 2.0**-52 * magnitude
        if self.class_form is not None:
            denominators = np.array(
                [float(falling(n, self.length)) for n in sizes.reshape(-1).tolist()]
            ).reshape(*sizes.shape, 1)
            form, form_abs = self.class_form.floats(self._binomials(c, np.float64))
            value = value + form / denominators
            steps_q = self.class_form.steps() + self.length + 1
            bound = bound + steps_q * 2.0**-52 * form_abs / denominators
        return value / self.scale, bound / self.scale

    def _grouped_floats(self, c: Any, grouped: _Grouped) -> tuple[Any, Any]:
        """:meth:`_floats` of one composition and one key, rows summed by group (a simulation's
        states, one by one): every row of a group shares its second half and its extension,
        so ``Σ_i C_i H1_i H2_i Q_i = Σ_g (H2_g Q_g) Σ_{i∈g} C_i H1_i``. Each term takes the
        same three roundings after the halves' products (``C·H1``, ``H2·Q``, their product)
        and at most ``R − 1`` additions on its way, so the bound of :meth:`approximate` holds
        as it is; about half the passes over the rows of :meth:`_floats`."""
        import numpy as np

        first, second = self._evaluation_plan().half_products(self._table(c, np.float64))
        quotient = np.array(self._extension_row(int(c.sum()), "float"))
        outer = second[grouped.second] * quotient[grouped.extension]
        terms = np.take(first, grouped.first) * grouped.coefficients
        value = np.add.reduceat(terms, grouped.starts) @ outer
        np.abs(terms, out=terms)
        magnitude = np.add.reduceat(terms, grouped.starts) @ np.abs(outer)
        steps = 3 * self.length + self.types + 2 + self.rows
        bound = steps * 2.0**-52 * magnitude
        return np.array([value / self.scale]), np.array([bound / self.scale])


class _Grouped:
    """One key's rows sorted by (second half, extension): each row's first half and
    coefficient, where each group starts, and each group's second half and extension."""

    def __init__(self, plan: _Plan) -> None:
        import numpy as np

        (_, first), (_, second) = plan.halves
        extensions = len(plan.extensions)
        codes = second.astype(np.int64) * extensions + plan.extension_index
        order = np.argsort(codes, kind="stable")
        codes = codes[order]
        self.starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]).astype(np.intp)
        self.first = np.ascontiguousarray(first[order])
        self.coefficients = np.ascontiguousarray(plan.coefficients[order, 0], dtype=np.float64)
        self.second = (codes[self.starts] // extensions).astype(np.intp)
        self.extension = (codes[self.starts] % extensions).astype(np.intp)


def _column_product(take: Callable[[Any], Any], factors: Sequence[Any], p: int | None) -> Any:
    """The elementwise product of the table's columns ``take(f)`` for ``f`` in ``factors``
    (reduced mod ``p`` after each step, if given): one shape's or one half's ``FF`` products."""
    values = take(factors[0])
    for column in factors[1:]:
        values = values * take(column)
        if p is not None:
            values %= p
    return values


def _gather(values: Any, index: Any) -> Any:
    """``values[..., index]``; plain indexing for one composition (markedly faster)."""
    return values[index] if values.ndim == 1 else values[..., index]


def _float_extension(n: int, s: int, x: int, length: int) -> float:
    """``(n − s)_x / (n)_L`` in double precision (0 when no sequence of ``L`` cards exists)."""
    denominator = float(falling(n, length))
    return float(falling(n - s, x)) / denominator if denominator else 0.0


class _Plan:
    """How a polynomial is evaluated, worked out once from its table (see the module doc).

    Two ways to form every row's ``FF_m(c)``, whichever takes fewer array
    operations for this table:

    * *halves*: the types are split in two; the distinct half-multisets'
      products are computed once and gathered per row (best when many rows
      share their halves: a charted blackjack round's 700,000 rows have a few
      thousand distinct halves);
    * *shapes*: rows grouped by how many types they use, one gather per used
      type (best for sparse rows over many types: two-hand corrections).

    The plan keeps its own row order (``order``); every per-row array it
    holds — the coefficients' contiguous copy, ``extension_index`` — is in
    that order. ``extensions`` are the distinct ``(|m|, x)`` pairs.
    """

    def __init__(self, polynomial: FallingPolynomial[Any]) -> None:
        import numpy as np

        exponents = polynomial.exponents.astype(np.int64)
        self.width = int(exponents.max()) + 1 if exponents.size else 1
        if polynomial.class_form is not None:
            self.width = max(self.width, polynomial.class_form.hand_size + 1)
            polynomial.class_form.lay_out(self.width)
        rows = len(exponents)
        used = (exponents > 0).sum(axis=1)
        halves = self._halves(exponents, polynomial.types, self.width)
        # Array operations per evaluation; a row's two gathers from the halves' products
        # (and their product) cost about four table gathers (measured).
        halves_cost = sum(len(c) * (2 * c.shape[1] - 1) for c, _ in halves) + 4 * rows
        shapes_cost = int((2 * used - 1).clip(min=1).sum())
        self.order = np.arange(rows, dtype=np.intp)
        self.halves: list[tuple[Any, Any]] = []
        self.shapes: list[tuple[int, int, Any]] = []  # (start, stop, factor positions)
        if halves_cost <= shapes_cost:
            self.halves = halves
        else:
            self.order = np.argsort(used, kind="stable").astype(np.intp)
            ordered = exponents[self.order]
            counts = used[self.order]
            flat = np.arange(polynomial.types, dtype=np.int64) * self.width + ordered
            present = ordered > 0
            width = max(int(counts.max()) if rows else 0, 1)
            order = np.argsort(~present, axis=1, kind="stable")[:, :width]
            columns = np.where(
                np.take_along_axis(present, order, axis=1),
                np.take_along_axis(flat, order, axis=1),
                0,
            )
            start = 0
            for k, size in zip(*np.unique(counts, return_counts=True), strict=True):
                stop = start + int(size)
                self.shapes.append((start, stop, columns[start:stop, : max(int(k), 1)]))
                start = stop
        sizes = polynomial._sizes[self.order]
        extension = polynomial.extension[self.order]
        pairs = sizes * (polynomial.length + 1) + extension
        codes, extension_index = np.unique(pairs, return_inverse=True)
        self.extensions = [divmod(int(code), polynomial.length + 1) for code in codes]
        self.extension_index = extension_index.reshape(-1).astype(np.intp)
        largest = np.abs(polynomial.coefficients).max(axis=1) if rows else np.zeros(0)
        degrees = polynomial._sizes + polynomial.extension
        by_degree: dict[int, int] = defaultdict(int)
        for d, s in zip(degrees.tolist(), largest.tolist(), strict=True):
            by_degree[d] += int(s)
        self.largest_by_degree = sorted(by_degree.items())
        covered = {j for g in polynomial.groups for j in g}
        self.grouped_nonnegative = covered == set(range(len(polynomial.keys))) and (
            not rows or int(polynomial.coefficients.min()) >= 0
        )
        self.coefficients = polynomial.coefficients[self.order]
        # Each factor's positions as one contiguous array (a column of the layouts above).
        self._shape_factors = [
            [np.ascontiguousarray(columns[:, j]) for j in range(columns.shape[1])]
            for _, _, columns in self.shapes
        ]
        self._half_factors = [
            ([np.ascontiguousarray(columns[:, j]) for j in range(columns.shape[1])], index)
            for columns, index in self.halves
        ]
        self._columns: Any = None
        self._floats: tuple[Any, Any] | None = None
        self._grouped: _Grouped | None = None

    def grouped(self) -> _Grouped | None:
        """The rows grouped for one composition's floats (:class:`_Grouped`), built once;
        ``None`` unless the plan goes by two halves and has rows."""
        if len(self.halves) != 2 or not len(self.coefficients):
            return None
        if self._grouped is None:
            self._grouped = _Grouped(self)
        return self._grouped

    @staticmethod
    def _halves(exponents: Any, types: int, width: int) -> list[tuple[Any, Any]]:
        """Per half of the types: distinct half-rows' factor positions, each row's index."""
        import numpy as np

        middle = types // 2 if types > 1 else types
        found = []
        for lo, hi in ((0, middle), (middle, types)):
            if hi <= lo:
                continue
            distinct, index = _distinct_rows(exponents[:, lo:hi], width)
            present = distinct > 0
            used = max(int(present.sum(axis=1).max()) if len(distinct) else 0, 1)
            flat = np.arange(lo, hi, dtype=np.int64) * width + distinct
            order = np.argsort(~present, axis=1, kind="stable")[:, :used]
            columns = np.where(
                np.take_along_axis(present, order, axis=1),
                np.take_along_axis(flat, order, axis=1),
                0,
            )
            found.append((columns.astype(np.intp), index.reshape(-1).astype(np.intp)))
        return found

    def products(self, table: Any, p: int | None = None) -> Any:
        """``FF_m(c)`` of every row, in plan order (mod ``p`` if given).

        ``table`` is one composition's flattened falling factorials, or a
        batch of them (rows); a single composition takes plain indexing (the
        fast path of simulations).
        """
        import numpy as np

        take: Callable[[Any], Any] = (
            table.__getitem__ if table.ndim == 1 else partial(np.take, table, axis=-1)
        )
        if self.shapes:
            parts = [_column_product(take, factors, p) for factors in self._shape_factors]
            return np.concatenate(parts, axis=-1)
        result = None
        for half, (_, index) in zip(self.half_products(table, p), self._half_factors, strict=True):
            gathered = half[index] if half.ndim == 1 else half[..., index]
            if result is None:
                result = gathered
            else:
                result = result * gathered
                if p is not None:
                    result %= p
        if result is None:  # no rows
            return np.zeros((*table.shape[:-1], 0), dtype=table.dtype)
        return result

    def half_products(self, table: Any, p: int | None = None) -> list[Any]:
        """The distinct half-multisets' ``FF`` products of a halves plan (mod ``p`` if given)."""
        import numpy as np

        take: Callable[[Any], Any] = (
            table.__getitem__ if table.ndim == 1 else partial(np.take, table, axis=-1)
        )
        return [_column_product(take, factors, p) for factors, _ in self._half_factors]

    def dot(self, weights: Any) -> Any:
        """``weights @ coefficients`` in ``int64``, each key's sum over contiguous memory.

        numpy's integer products do not use BLAS; running over the transposed
        (keys × rows) copy is several times faster than over the rows, and a batch goes
        through ``einsum`` (a third of ``@``'s time on a shoe's states, whatever the
        weights' memory order).
        """
        import numpy as np

        if self._columns is None:
            self._columns = np.ascontiguousarray(self.coefficients.T)
        if weights.ndim == 1:
            return self._columns @ weights
        return np.einsum("...r,kr->...k", weights, self._columns)

    def float_coefficients(self) -> tuple[Any, Any]:
        import numpy as np

        if self._floats is None:
            floats = self.coefficients.astype(np.float64)
            self._floats = (floats, np.abs(floats))
        return self._floats


def _distinct_rows(part: Any, base: int) -> tuple[Any, Any]:
    """``np.unique(part, axis=0, return_inverse=True)``, by integer codes when they fit.

    A row of exponents below ``base`` is the integer ``Σ e_t base^t``; sorting
    integers is many times faster than sorting rows (700,000 rows for a
    charted blackjack round).
    """
    import numpy as np

    if len(part) == 0:
        return part, np.zeros(0, dtype=np.intp)
    if part.shape[1] * max(base - 1, 1).bit_length() < 62:
        powers = base ** np.arange(part.shape[1], dtype=np.int64)
        codes, index = np.unique(part @ powers, return_inverse=True)
        distinct = (codes[:, None] // powers[None, :]) % base
        return distinct, index
    return np.unique(part, axis=0, return_inverse=True)


def _swapped(exponents: tuple[int, ...], i: int, j: int) -> tuple[int, ...]:
    row = list(exponents)
    row[i], row[j] = row[j], row[i]
    return tuple(row)


def _primes() -> Iterable[int]:
    """:data:`PRIMES`, then further primes below them (found by sympy, rarely needed)."""
    yield from PRIMES
    from sympy import prevprime

    p = PRIMES[-1]
    while True:
        p = int(prevprime(p))
        yield p


def _crt(residues: Sequence[int], moduli: Sequence[int]) -> int:
    """The integer in ``[0, ∏ moduli)`` with the given residues (Chinese remainder theorem)."""
    value, modulus = 0, 1
    for r, m in zip(residues, moduli, strict=True):
        inverse = pow(modulus, -1, m)
        value += modulus * ((r - value) * inverse % m)
        modulus *= m
    return value % modulus


def falling_polynomial(
    types: int,
    keys: Sequence[K],
    terms: Mapping[tuple[int, ...], Sequence[int]],
    *,
    extended: bool,
    length: int | None = None,
    scale: int = 1,
    groups: Iterable[Iterable[int]] = (),
) -> FallingPolynomial[K]:
    """A polynomial from ``{exponents (one per type): coefficient per key}`` (zero rows dropped)."""
    import numpy as np

    rows = [(e, c) for e, c in sorted(terms.items()) if any(c)]
    exponents = np.array([e for e, _ in rows], dtype=np.int64).reshape(len(rows), types)
    coefficients = np.array([list(c) for _, c in rows], dtype=object).reshape(len(rows), len(keys))
    return FallingPolynomial(
        types,
        keys,
        exponents,
        coefficients,
        extended=extended,
        length=length,
        scale=scale,
        groups=groups,
    )


# ---------------------------------------------------------------------------
# Two hands from one shoe


def _merge(first: Sequence[int], second: Sequence[int]) -> dict[int, list[int]]:
    """Per type of either hand: ``[copies in the first, copies in the second]``."""
    found: dict[int, list[int]] = {}
    for t in first:
        found.setdefault(t, [0, 0])[0] += 1
    for t in second:
        found.setdefault(t, [0, 0])[1] += 1
    return found


def _factorials(hand: Sequence[int]) -> int:
    """``A! = ∏_t a_t!`` of a sorted hand."""
    result, run = 1, 1
    for i in range(1, len(hand)):
        run = run + 1 if hand[i] == hand[i - 1] else 1
        result *= run
    return result


def _rational(value: Fraction | int) -> Fraction:
    return value if isinstance(value, Fraction) else Fraction(value)


def two_hand_polynomial(
    full: Sequence[int],
    size: int,
    classify: Callable[[tuple[int, ...]], C],
    bets: Sequence[str],
    payoff: Callable[[C, C], Sequence[Fraction]],
    factored: bool | None = None,
) -> FallingPolynomial[str]:
    """The EV polynomial of bets settled on a first hand and a second hand of ``size``.

    Two unordered hands ``A`` then ``B`` are dealt in ``FF_{A+B}(c) / (A! B!)``
    ways of ``(n)_{2h} / (h!)²``, so a bet paying ``pay(A, B)`` has

        EV(c) = Σ_M K_M · FF_M(c) / (scale · (n)_{2h}),
        K_M = scale · Σ_{A+B=M} pay(A, B) · (h!)² / (A! B!)

    (the *canonical* table: one row per multiset ``M`` of ``2h`` types; an
    integer once the payouts are scaled). With many types (``factored``,
    default above 16) the table is a class form plus a correction: using
    ``(c)_a (c)_b = Σ_j C(a,j) C(b,j) j! (c)_{a+b−j}`` for every type two hands
    share, the pairs sharing no type are exactly the quadratic form of the
    class weights, and the correction has only rows of degree ``< 2h`` on at
    most ``2h − 1`` types (about 25,000 for two cards from 52 types).

    ``classify`` maps a hand (sorted type indices) to a class;
    ``payoff(first class, second class)`` gives the net per unit staked of every
    bet, in ``bets`` order. A bet on the first hand alone ignores the second
    class. Keys are the bets; :meth:`FallingPolynomial.fractions` gives the EVs.
    """
    types = len(full)
    all_hands = [hand for hand, _ in engine_hands(full, size)]
    index: dict[C, int] = {}
    classes = [index.setdefault(classify(hand), len(index)) for hand in all_hands]
    names = list(index)
    table = [[[_rational(v) for v in payoff(x, y)] for y in names] for x in names]
    scale = lcm(*(v.denominator for row in table for cell in row for v in cell))
    # Each net as an integer over the common denominator (integer arithmetic: a Fraction
    # product per cell and bet was most of a Dragon Tiger audit's shoe law).
    matrix = [
        [[row[y][b].numerator * (scale // row[y][b].denominator) for y in range(len(names))]
         for row in table]
        for b in range(len(bets))
    ]  # fmt: skip
    if factored is None:
        factored = types > 16
    import numpy as np

    class_form = None
    if factored:
        exponents, coefficients = _correction_terms(full, size, classes, matrix)
        class_form = _ClassForm(all_hands, classes, matrix, size)
    else:
        monomials = _canonical_terms(all_hands, classes, matrix, factorial(size) ** 2, len(bets))
        dense: dict[tuple[int, ...], list[int]] = {}
        for mono, k in monomials.items():
            row = [0] * types
            for t, m in mono:
                row[t] = m
            dense[tuple(row)] = k
        rows = sorted(dense.items())
        exponents = np.array([e for e, _ in rows], dtype=np.int64).reshape(len(rows), types)
        coefficients = np.array([c for _, c in rows], dtype=object).reshape(len(rows), len(bets))
    return FallingPolynomial(
        types,
        tuple(bets),
        exponents,
        coefficients,
        extended=False,
        length=2 * size,
        scale=scale,
        class_form=class_form,
    )


def _canonical_terms(
    all_hands: list[tuple[int, ...]],
    classes: list[int],
    matrix: list[list[list[int]]],
    multinomial: int,
    bets: int,
) -> dict[Monomial, list[int]]:
    """``K_M`` for every multiset ``M`` of two hands (every pair of hands visited)."""
    found: dict[Monomial, list[int]] = defaultdict(lambda: [0] * bets)
    inverse = [multinomial // _factorials(h) for h in all_hands]
    for i, first in enumerate(all_hands):
        for j, second in enumerate(all_hands):
            merged = _merge(first, second)
            mono = tuple(sorted((t, a + b) for t, (a, b) in merged.items()))
            factor = inverse[i] // _factorials(second)
            cell = found[mono]
            for b in range(bets):
                cell[b] += matrix[b][classes[i]][classes[j]] * factor
    return {m: k for m, k in found.items() if any(k)}


@cached(maxsize=8)
def _correction_layout(
    full: tuple[int, ...], size: int, classes: tuple[int, ...]
) -> tuple[Any, Any, Any, Any, Any, int]:
    """The factored form's correction without its payoffs: pairs of hands sharing a type.

    For hands ``A``, ``B`` sharing types, ``(c)_a (c)_b = Σ_j C(a,j) C(b,j) j! (c)_{a+b−j}``
    per shared type gives monomials ``M`` with factors ``(h!)²/(A! B!) · ∏ C(a,j) C(b,j) j!``
    (every ``j`` not all zero). The correction of a bet is ``−Σ factor · pay`` over these,
    and the pay depends only on the two hands' classes, so the factors are summed per
    monomial and unordered pair of classes ``X ≤ Y`` here, once per shoe, hand size and
    classing (Pok Deng's two paytables and its outcome law share one), and
    :func:`_correction_terms` contracts them with a payoff matrix. A pair of hands is
    visited once, its factor doubled for two different hands of one class (the pair the
    other way round); for ``X < Y`` the pay is ``P[X, Y] + P[Y, X]``.

    Returns the distinct monomials (rows of exponents, increasing as tuples), and per
    entry (grouped by monomial, ``starts`` marking each group) its class pair
    ``X · classes + Y`` and summed factor, and the number of classes.
    """
    import numpy as np

    hands_ = [hand for hand, _ in engine_hands(full, size)]
    types, count = len(full), len(hands_)
    held = np.zeros((count, types + 1), dtype=np.int8)  # a last column of zeros: no type
    distinct = np.full((count, size), types, dtype=np.intp)  # each hand's types, padded
    for h, hand in enumerate(hands_):
        for s, (t, m) in enumerate(hand_groups(hand)):
            held[h, t], distinct[h, s] = m, t
    present = np.packbits(held[:, :types] > 0, axis=1)  # each hand's types, as bits
    firsts, seconds = [], []
    for lo in range(0, count, 256):  # pairs i ≤ j sharing a type, a block of rows at a time
        shares = (present[lo : lo + 256, None, :] & present[None, :, :]).any(axis=2)
        rows, columns = np.nonzero(shares)
        keep = columns >= rows + lo
        firsts.append(rows[keep] + lo)
        seconds.append(columns[keep])
    first, second = np.concatenate(firsts), np.concatenate(seconds)
    # Per slot (the first hand's s-th type): the copies of it in each hand.
    slots = distinct[first]
    a = np.take_along_axis(held[first], slots, axis=1).astype(np.int64)
    b = np.take_along_axis(held[second], slots, axis=1).astype(np.int64)
    shared = np.minimum(a, b)
    # Expand each pair into every choice of j per shared type (slot by slot), not all zero.
    pair = np.arange(len(first))
    picks = np.zeros((len(first), size), dtype=np.int64)
    for s in range(size):
        repeats = shared[pair, s] + 1
        ends = np.cumsum(repeats)
        within = np.arange(int(ends[-1]) if len(ends) else 0) - np.repeat(ends - repeats, repeats)
        pair, picks = np.repeat(pair, repeats), np.repeat(picks, repeats, axis=0)
        picks[:, s] = within
    chosen = picks.any(axis=1)
    pair, picks = pair[chosen], picks[chosen]
    weight = np.zeros((size + 1, size + 1, size + 1), dtype=np.int64)
    for u in range(size + 1):
        for v in range(size + 1):
            for k in range(min(u, v) + 1):
                weight[u, v, k] = comb(u, k) * comb(v, k) * factorial(k)
    factorials = np.array([_factorials(hand) for hand in hands_], dtype=np.int64)
    factor: Any = factorial(size) ** 2 // (factorials[first[pair]] * factorials[second[pair]])
    degrees = held[first[pair]] + held[second[pair]]
    entries = np.arange(len(pair))
    for s in range(size):
        factor = factor * weight[a[pair, s], b[pair, s], picks[:, s]]
        degrees[entries, slots[pair, s]] -= picks[:, s].astype(np.int8)
    degrees = np.ascontiguousarray(degrees[:, :types])
    label = np.asarray(classes, dtype=np.int64)
    x, y = label[first[pair]], label[second[pair]]
    factor = np.where((x == y) & (first[pair] != second[pair]), 2 * factor, factor)
    width = int(label.max()) + 1 if len(label) else 1
    # Monomials by their bytes: byte order is the order of exponent tuples (all below 128).
    monomials, mono = np.unique(
        degrees.view(np.dtype((np.void, types))).ravel(), return_inverse=True
    )
    key = mono.reshape(-1) * width * width + np.minimum(x, y) * width + np.maximum(x, y)
    order = np.argsort(key, kind="stable")
    key, factor = key[order], factor[order]
    first_of_key = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    factor = np.add.reduceat(factor, first_of_key) if len(key) else factor
    key = key[first_of_key]
    cell = key // (width * width)
    starts = np.flatnonzero(np.r_[True, cell[1:] != cell[:-1]]) if len(cell) else cell
    exponents = monomials.view(np.int8).reshape(-1, types)
    return exponents, starts, key % (width * width), factor, np.abs(factor).max(initial=0), width


def _correction_terms(
    full: Sequence[int],
    size: int,
    classes: Sequence[int],
    matrix: list[list[list[int]]],
) -> tuple[Any, Any]:
    """The factored form's correction rows ``(exponents, coefficients)``, zero rows dropped:
    :func:`_correction_layout` contracted with the payoff ``matrix`` (bets × classes ×
    classes), in ``int64`` when no sum can overflow, else in Python integers."""
    import numpy as np

    exponents, starts, cells, factors, largest, width = _correction_layout(
        tuple(full), size, tuple(classes)
    )
    given = np.array(matrix, dtype=object).reshape(len(matrix), width, width)
    both = given + given.transpose(0, 2, 1)
    diagonal = np.arange(width)
    both[:, diagonal, diagonal] //= 2  # one pay on the diagonal, not both orders'
    pays = both.reshape(len(matrix), -1)
    largest_pay = max((abs(int(v)) for v in pays.flat), default=0)
    dtype = object if largest * largest_pay * max(len(factors), 1) >= INT64_SAFE else np.int64
    terms = factors.astype(dtype)[:, None] * pays.astype(dtype)[:, cells].T
    coefficients = -np.add.reduceat(terms, starts, axis=0) if len(terms) else terms
    kept = (coefficients != 0).any(axis=1)
    return exponents[kept], coefficients[kept]
