"""The engine for sub-compositions: a bet's exact EV as a polynomial in the counts.

:mod:`odds.engine` counts deals from one composition. Shoe-state questions ask
the same thing of thousands of compositions (every state a dealt shoe passes
through), so this module does the work that does not depend on the
composition once, and leaves a small exact evaluation per composition.

Why a polynomial
----------------
Two unordered hands ``A`` then ``B`` (multisets of types, ``h`` cards each) are
dealt from counts ``c`` in ``∏_t C(c_t, a_t) · C(c_t − a_t, b_t) =
FF_{A+B}(c) / (A! B!)`` ways, where ``FF_M(c) = ∏_t (c_t)_{m_t}`` (falling
factorials) and ``A! = ∏_t a_t!``. There are ``(n)_{2h} / (h!)²`` deals in all
(``n = Σ c``), so a bet paying ``pay(A, B)`` has

    EV(c) = Σ_M K_M · FF_M(c) / (n)_{2h},   K_M = Σ_{A+B=M} pay(A, B) · (h!)² / (A! B!),

a fixed polynomial (the *canonical* table: one coefficient per multiset ``M``
of ``2h`` types). Every coefficient is an integer once the payouts are scaled
to integers, so each EV is an exact ratio of integers.

The factored form (many types)
------------------------------
With 52 card types the canonical table has 341,055 monomials. When the payoff
depends only on the hands' *classes*, most of it is a quadratic form: writing
``W_X(c)`` for the ways of class ``X`` (one hand) and using
``(c)_a (c)_b = Σ_j C(a,j) C(b,j) j! (c)_{a+b−j}`` for every type the two
hands share,

    (h!)⁻² · EV(c) · (n)_{2h} = Σ_{X,Y} P[X,Y] W_X W_Y − Σ_{A,B sharing a type} P/(A!B!) · D

    D = Σ_{j≠0} ∏_t C(a_t,j_t) C(b_t,j_t) j_t! · FF_{A+B−j}   (j_t ≤ copies shared)

The correction has only monomials of degree < 2h on at most 2h − 1 types
(about 25,000 for two cards from 52 types), so an evaluation is a few
thousand hand weights, a class-by-class quadratic form and one short dot
product.

Exactness
---------
Evaluations use numpy's int64 arithmetic only after a bound computed when the
table is built proves that no partial sum can overflow for any composition
below the full shoe (every term is bounded by its value at the full counts);
otherwise they use Python integers. Results are exact either way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import comb, factorial, lcm, prod
from typing import Any, TypeVar

from odds.engine import hands as engine_hands

Monomial = tuple[tuple[int, int], ...]  # ((type, multiplicity), …), types increasing
INT64_SAFE = 2**62


def falling(n: int, k: int) -> int:
    """``n (n−1) … (n−k+1)``: 0 when ``k > n ≥ 0``."""
    result = 1
    for i in range(k):
        result *= n - i
    return result


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


@dataclass(frozen=True)
class _Terms:
    """Monomials of one shape (number of distinct types), ready for gathers."""

    columns: Any  # int array (monomials × types): flat indices into the factorial table
    coefficients: Any  # int64 or object array (monomials × bets)


class RemovalPolynomial:
    """Exact EVs of bets on two hands for every composition below one shoe.

    Build with :func:`two_hand_polynomial`. :meth:`numerators` gives integer
    numerators over :meth:`denominator`; :meth:`evs` the Fractions.
    """

    def __init__(
        self,
        full: Sequence[int],
        hand_size: int,
        bets: Sequence[str],
        scale: int,
        monomials: dict[Monomial, list[int]],
        quadratic: tuple[list[tuple[int, ...]], list[int], list[list[list[int]]]] | None = None,
    ) -> None:
        import numpy as np

        self.full = tuple(full)
        self.hand_size = hand_size
        self.bets = tuple(bets)
        self.scale = scale
        self.degree = 2 * hand_size
        self.monomial_count = len(monomials)
        #: The canonical table ``{M: K_M per bet}`` (``None`` in the factored form).
        self.canonical: dict[Monomial, list[int]] | None = (
            dict(monomials) if quadratic is None else None
        )
        self._width = self.degree + 1
        bound = sum(
            max(map(abs, k)) * prod(falling(self.full[t], m) for t, m in mono)
            for mono, k in monomials.items()
        )
        self._quadratic = None
        if quadratic is not None:
            layout, quadratic_bound = self._lay_out_quadratic(*quadratic, np=np)
            bound += quadratic_bound
            columns, starts, matrix = layout
            dtype: Any = object if bound >= INT64_SAFE else np.int64
            self._quadratic = (columns, starts, np.array(matrix, dtype=dtype))
        self.exact_int64 = bound < INT64_SAFE
        self._dtype = np.int64 if self.exact_int64 else object
        shapes: dict[int, list[Monomial]] = defaultdict(list)
        for mono in monomials:
            shapes[len(mono)].append(mono)
        self._terms = []
        for size in sorted(shapes):
            monos = sorted(shapes[size])
            rows = np.array([monomials[m] for m in monos], dtype=self._dtype)
            self._terms.append(_Terms(self._columns(monos, np), rows.reshape(len(monos), -1)))

    def _lay_out_quadratic(
        self,
        hands_: list[tuple[int, ...]],
        classes: list[int],
        matrix: list[list[list[int]]],
        np: Any,
    ) -> tuple[tuple[Any, Any, list[list[list[int]]]], int]:
        """Hands sorted by class (gathers, then class sums by ``reduceat``) and the form's bound.

        The bound is the largest |quadratic form| over compositions below the
        full shoe: every class weight is at most its full-shoe value.
        """
        order = sorted(range(len(hands_)), key=lambda i: classes[i])
        sorted_classes = [classes[i] for i in order]
        starts = [
            i for i in range(len(order)) if i == 0 or sorted_classes[i] != sorted_classes[i - 1]
        ]
        totals = [0] * len(matrix[0])
        for i, cls in zip(order, sorted_classes, strict=True):
            totals[cls] += prod(comb(self.full[t], a) for t, a in _groups(hands_[i]))
        bound = factorial(self.hand_size) ** 2 * max(
            sum(
                abs(v) * totals[x] * totals[y] for x, row in enumerate(m) for y, v in enumerate(row)
            )
            for m in matrix
        )
        hand_terms = [tuple(_groups(hands_[i])) for i in order]
        layout = (self._columns(hand_terms, np), np.array(starts, dtype=np.intp), matrix)
        return layout, bound

    def _columns(self, monos: Sequence[Monomial], np: Any) -> Any:
        """Flat indices ``type · width + multiplicity`` for each monomial's factors."""
        size = max((len(m) for m in monos), default=0)
        # Pad with (type 0, multiplicity 0): a factor of 1.
        rows = [[t * self._width + j for t, j in m] + [0] * (size - len(m)) for m in monos]
        return np.array(rows, dtype=np.intp).reshape(len(monos), size)

    # -- evaluation -----------------------------------------------------------

    def check(self, counts: Sequence[int]) -> None:
        """A composition must lie below the full shoe (the bound assumes it)."""
        if len(counts) != len(self.full) or any(
            not 0 <= c <= f for c, f in zip(counts, self.full, strict=True)
        ):
            raise ValueError("composition outside the shoe the polynomial was built for")

    def _tables(self, counts: Any, np: Any) -> tuple[Any, Any]:
        """Falling factorials ``(c_t)_j`` and binomials ``C(c_t, j)``, flattened per row."""
        c = np.asarray(counts, dtype=self._dtype if self._dtype is object else np.int64)
        shape = (*c.shape, self._width)
        ff = np.ones(shape, dtype=c.dtype)
        binom = np.ones(shape, dtype=c.dtype)
        for j in range(1, self._width):
            ff[..., j] = ff[..., j - 1] * (c - (j - 1))
            binom[..., j] = ff[..., j] // factorial(j)
        flat = (*c.shape[:-1], c.shape[-1] * self._width)
        return ff.reshape(flat), binom.reshape(flat)

    def numerators(self, counts: Sequence[int] | Any) -> Any:
        """Integer numerators per bet (last axis) for one composition or a batch (rows).

        EV = numerator / :meth:`denominator` of the same composition.
        """
        import numpy as np

        ff, binom = self._tables(counts, np)
        result = None
        for terms in self._terms:
            values = _product(ff, terms.columns)
            part = values @ terms.coefficients
            result = part if result is None else result + part
        if self._quadratic is not None:
            columns, starts, matrix = self._quadratic
            weights = _product(binom, columns)
            classes = np.add.reduceat(weights, starts, axis=-1)
            quadratic = np.einsum("...x,bxy,...y->...b", classes, matrix, classes)
            scaled = quadratic * (factorial(self.hand_size) ** 2)
            result = scaled if result is None else result + scaled
        assert result is not None
        return result

    def denominator(self, size: int) -> int:
        """Common denominator of the numerators for a composition of ``size`` cards."""
        return self.scale * falling(size, self.degree)

    def invariant_blocks(self) -> list[list[int]]:
        """Types the polynomial treats alike: blocks on which every permutation keeps every EV.

        Only types with the same full count can be exchanged. A transposition
        ``(i j)`` is kept when it maps the canonical table onto itself; the
        blocks are the connected components of the kept transpositions (they
        generate the full symmetric group on each block). Exact: two
        polynomials are equal exactly when their canonical coefficients are.
        The factored form reports no symmetry.
        """
        types = len(self.full)
        parent = list(range(types))

        def root(i: int) -> int:
            while parent[i] != i:
                i = parent[i]
            return i

        if self.canonical is not None:
            table = self.canonical
            for i in range(types):
                for j in range(i + 1, types):
                    if self.full[i] != self.full[j] or root(i) == root(j):
                        continue
                    swap = {i: j, j: i}
                    if all(
                        table.get(tuple(sorted((swap.get(t, t), m) for t, m in mono))) == k
                        for mono, k in table.items()
                    ):
                        parent[root(j)] = root(i)
        blocks: dict[int, list[int]] = defaultdict(list)
        for t in range(types):
            blocks[root(t)].append(t)
        return sorted(blocks.values())

    def evs(self, counts: Sequence[int]) -> dict[str, Fraction]:
        """Exact EV of every bet for one composition."""
        self.check(counts)
        size = sum(counts)
        if size < self.degree:
            raise ValueError(f"a composition of {size} cards cannot deal two hands")
        values = self.numerators(counts)
        d = self.denominator(size)
        return {bet: Fraction(int(v), d) for bet, v in zip(self.bets, values, strict=True)}


def _product(table: Any, columns: Any) -> Any:
    """``∏_k table[..., columns[:, k]]``: one gather per factor (faster than a reduce)."""
    values = table[..., columns[:, 0]]
    for k in range(1, columns.shape[1]):
        values = values * table[..., columns[:, k]]
    return values


def _groups(hand: Sequence[int]) -> list[tuple[int, int]]:
    """``(type, multiplicity)`` of a sorted hand."""
    found: list[tuple[int, int]] = []
    for t in hand:
        if found and found[-1][0] == t:
            found[-1] = (t, found[-1][1] + 1)
        else:
            found.append((t, 1))
    return found


C = TypeVar("C", bound=Hashable)


def two_hand_polynomial(
    full: Sequence[int],
    size: int,
    classify: Callable[[tuple[int, ...]], C],
    bets: Sequence[str],
    payoff: Callable[[C, C], Sequence[Fraction]],
    factored: bool | None = None,
) -> RemovalPolynomial:
    """The EV polynomial of bets settled on a first hand and a second hand of ``size``.

    ``classify`` maps a hand (sorted type indices) to a class;
    ``payoff(first class, second class)`` gives the net per unit staked of every
    bet, in ``bets`` order. A bet on the first hand alone ignores the second
    class. ``factored`` chooses the form (default: factored above 16 types).
    """
    all_hands = [hand for hand, _ in engine_hands(full, size)]
    index: dict[C, int] = {}
    classes = [index.setdefault(classify(hand), len(index)) for hand in all_hands]
    names = list(index)
    table = [[list(payoff(x, y)) for y in names] for x in names]
    scale = lcm(*(Fraction(v).denominator for row in table for cell in row for v in cell))
    matrix = [
        [
            [int(Fraction(table[x][y][b]) * scale) for y in range(len(names))]
            for x in range(len(names))
        ]
        for b in range(len(bets))
    ]
    if factored is None:
        factored = len(full) > 16
    multinomial = factorial(size) ** 2
    builder = _correction_terms if factored else _canonical_terms
    monomials = builder(all_hands, classes, matrix, multinomial, len(bets))
    quadratic = (all_hands, classes, matrix) if factored else None
    return RemovalPolynomial(full, size, bets, scale, monomials, quadratic)


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


def _correction_terms(
    all_hands: list[tuple[int, ...]],
    classes: list[int],
    matrix: list[list[list[int]]],
    multinomial: int,
    bets: int,
) -> dict[Monomial, list[int]]:
    """The factored form's correction: pairs of hands sharing a type (see the module doc)."""
    containing: dict[int, list[int]] = defaultdict(list)
    for j, hand in enumerate(all_hands):
        for t in set(hand):
            containing[t].append(j)
    found: dict[Monomial, list[int]] = defaultdict(lambda: [0] * bets)
    for i, first in enumerate(all_hands):
        partners = sorted({j for t in set(first) for j in containing[t]})
        payoff_rows = [matrix[b][classes[i]] for b in range(bets)]
        for j in partners:
            second = all_hands[j]
            pays = [row[classes[j]] for row in payoff_rows]
            if not any(pays):
                continue
            base = multinomial // (_factorials(first) * _factorials(second))
            merged = _merge(first, second)
            shared = [t for t, (a, b) in merged.items() if a and b]
            choices = [range(0, min(merged[t]) + 1) for t in shared]
            for js in product(*choices):
                if not any(js):
                    continue
                factor = base
                degrees = {t: a + b for t, (a, b) in merged.items()}
                for t, jt in zip(shared, js, strict=True):
                    a, b = merged[t]
                    factor *= comb(a, jt) * comb(b, jt) * factorial(jt)
                    degrees[t] -= jt
                mono = tuple(sorted((t, m) for t, m in degrees.items() if m))
                cell = found[mono]
                for b in range(bets):
                    cell[b] -= pays[b] * factor
    return {m: k for m, k in found.items() if any(k)}
