"""The statistics against answers known independently: published intervals, and coverage measured
on numbers drawn with known probabilities and means."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tactica.sim.stats import (
    Z95,
    mcnemar_p,
    mean_interval,
    paired_mean_difference,
    paired_proportion_difference,
    wilson,
)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_published_intervals(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_is_symmetric_and_bounded() -> None:
    lo, hi = wilson(3, 10)
    lo2, hi2 = wilson(7, 10)
    assert (lo, hi) == pytest.approx((1 - hi2, 1 - lo2))
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert math.isnan(wilson(0, 0)[0])


def test_z95_is_the_normal_quantile() -> None:
    from scipy.stats import norm

    assert norm.ppf(0.975) == pytest.approx(Z95, abs=1e-12)


def test_mean_interval_is_the_t_interval() -> None:
    x = np.array([2.0, 4.0, 4.0, 5.0, 7.0, 9.0])
    m, lo, hi = mean_interval(x)
    # mean 31/6, sd 2.4833, t(0.975, 5) = 2.5706
    assert m == pytest.approx(31 / 6)
    half = 2.570582 * np.std(x, ddof=1) / math.sqrt(6)
    assert (lo, hi) == pytest.approx((m - half, m + half), abs=1e-6)


def _coverage(draw: object, truth: float, interval: object, runs: int) -> float:
    hits = 0
    for i in range(runs):
        lo, hi = interval(*draw(i))  # type: ignore[operator]
        hits += lo <= truth <= hi
    return hits / runs


def test_paired_difference_of_proportions_covers_the_truth_95_percent_of_the_time() -> None:
    """Pairs (A, B) with P(A)=0.55, P(B)=0.62 and a positive correlation (the common random numbers
    of a paired run: the same dice until the variant makes the fights part ways): the interval must
    cover 0.07 about 95% of the time (runs of 400)."""
    rng = np.random.default_rng(12)

    def draw(_i: int) -> tuple[np.ndarray, np.ndarray]:
        u = rng.random(400)
        apart = rng.random(400) < 0.3  # these fights part ways: B's outcome is a fresh draw
        b = np.where(apart, rng.random(400) < 0.62, u < 0.62)
        return (u < 0.55).astype(int), b.astype(int)

    def interval(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
        return paired_proportion_difference(a, b)[1:]

    cover = _coverage(draw, 0.07, interval, 1000)
    assert 0.93 <= cover <= 0.975


def test_paired_difference_of_proportions_with_independent_arms() -> None:
    rng = np.random.default_rng(5)

    def draw(_i: int) -> tuple[np.ndarray, np.ndarray]:
        return (rng.random(150) < 0.3).astype(int), (rng.random(150) < 0.4).astype(int)

    def interval(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
        return paired_proportion_difference(a, b)[1:]

    cover = _coverage(draw, 0.1, interval, 1000)
    assert 0.93 <= cover <= 0.975


def test_paired_mean_difference_covers_and_tests() -> None:
    rng = np.random.default_rng(8)

    def draw(_i: int) -> tuple[np.ndarray, np.ndarray]:
        base = rng.normal(10, 3, 200)
        return base, base + 0.5 + rng.normal(0, 1, 200)

    def interval(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
        return paired_mean_difference(a, b)[1:3]

    cover = _coverage(draw, 0.5, interval, 1000)
    assert 0.93 <= cover <= 0.97
    # a null difference: the p-value is uniform, so about 5% fall under 0.05
    null = [
        paired_mean_difference(x, x + rng.normal(0, 1, 200))[3]
        for x in (rng.normal(0, 1, 200) for _ in range(800))
    ]
    assert 0.03 <= np.mean(np.array(null) < 0.05) <= 0.07


def test_identical_arms_differ_by_nothing_with_certainty() -> None:
    a = np.array([1, 0, 1, 1, 0, 0, 1])
    assert paired_proportion_difference(a, a)[0] == 0.0
    assert mcnemar_p(a, a) == 1.0
    assert paired_mean_difference(a, a) == (0.0, 0.0, 0.0, 1.0)


def test_mcnemar_is_the_exact_binomial_test_on_discordant_pairs() -> None:
    # 10 pairs only A wins, 2 only B: two-sided binomial P(X <= 2 | n=12, 1/2) * 2 = 0.0386
    a = np.array([1] * 10 + [0] * 2 + [1] * 5 + [0] * 5)
    b = np.array([0] * 10 + [1] * 2 + [1] * 5 + [0] * 5)
    assert mcnemar_p(a, b) == pytest.approx(0.03857, abs=1e-5)
    assert paired_proportion_difference(a, b)[0] == pytest.approx(-8 / 22)
