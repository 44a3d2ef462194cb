"""Bradley–Terry maximum a posteriori fit on aggregated win matrices, many at once (one per bootstrap round).
Pure, numpy + scipy only; the rules it serves are in `server/battles/ratings.py` and docs/design.md §4.3a.

Model: P(i beats j) = σ(θ_i − θ_j), σ the logistic function. Given the (weighted) win matrix W, W[i, j] = what i won
against j (a tie is half a win each way), the fit maximizes the penalized log-likelihood

    ℓ(θ) = Σ_{i≠j} W[i, j] · log σ(θ_i − θ_j) − α/2 · Σ_i θ_i²

(a Gaussian prior N(0, 1/α) on each log-strength). ℓ is strictly concave for α > 0, so the maximum is unique and
finite even for a model that never lost or a comparison graph in several pieces. The likelihood does not change when
a constant is added to every θ of a connected piece, so the prior puts each piece's mean at 0: θ is centred.

Newton's method from θ = 0, all rounds as one batch. With N = W + Wᵀ and P[i, j] = σ(θ_i − θ_j):
gradient g_i = Σ_j W[i, j]·P[j, i] − W[j, i]·P[i, j] − α·θ_i; negative Hessian H = diag(Σ_j C[i, j] + α) − C with
C = N ∘ P ∘ Pᵀ. The step solves (H + 11ᵀ/n)·δ = g (by Cholesky: the matrix is positive definite): on centred θ the gradient is centred and the added 11ᵀ/n only
acts on the constant direction, where H has the small eigenvalue α; so δ is the exact Newton step and the system is
well conditioned however small α is. A step that would lower ℓ is halved until it does not (ℓ rises monotonically);
a round stops when its largest step is below `TOLERANCE` (1e-10 in θ), or when no step raises ℓ any more (the
optimum to machine precision). Deterministic: the same matrices give the same numbers.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from scipy.special import expit

Array = npt.NDArray[np.float64]
TOLERANCE = 1e-10
MAX_ITERATIONS = 200
MAX_HALVINGS = 60


def objective(wins: Array, theta: Array, alpha: float) -> Array:
    """ℓ(θ) per round: wins (R, n, n), theta (R, n) → (R,)."""
    difference = theta[:, :, None] - theta[:, None, :]
    likelihood = -(wins * np.logaddexp(0.0, -difference)).sum(axis=(1, 2))
    result: Array = likelihood - 0.5 * alpha * np.square(theta).sum(axis=1)
    return result


def gradient(wins: Array, theta: Array, alpha: float) -> Array:
    """∂ℓ/∂θ per round: wins (R, n, n), theta (R, n) → (R, n)."""
    beats = expit(theta[:, :, None] - theta[:, None, :])  # P[i, j]
    beaten = beats.transpose(0, 2, 1)  # P[j, i] = 1 − P[i, j], without the cancellation
    result: Array = (wins * beaten).sum(axis=2) - (wins.transpose(0, 2, 1) * beats).sum(axis=2) - alpha * theta
    return result


def solve_positive_definite(matrices: Array, vectors: Array) -> Array:
    """x with matrices[r] @ x[r] = vectors[r], each matrix symmetric positive definite: Cholesky, then the two
    triangular solves vectorized over the batch. (np.linalg.solve on many small matrices is far slower when
    OpenBLAS's threads share busy cores with other processes; Cholesky is not.)"""
    lower = np.linalg.cholesky(matrices)
    n = matrices.shape[1]
    forward = np.empty_like(vectors)
    for k in range(n):  # lower @ forward = vectors
        forward[:, k] = (vectors[:, k] - np.einsum("rj,rj->r", lower[:, k, :k], forward[:, :k])) / lower[:, k, k]
    result = np.empty_like(vectors)
    for k in reversed(range(n)):  # lowerᵀ @ result = forward
        result[:, k] = (forward[:, k] - np.einsum("rj,rj->r", lower[:, k + 1 :, k], result[:, k + 1 :])) / lower[:, k, k]
    return result


def fit(wins: Array, alpha: float) -> Array:
    """The centred log-strengths θ (R, n) maximizing ℓ for each of the R win matrices in `wins` (R, n, n)."""
    if alpha <= 0 or not np.isfinite(alpha):
        raise ValueError(f"the prior's strength alpha must be a positive number, not {alpha!r}")
    rounds, n, _ = wins.shape
    theta = np.zeros((rounds, n))
    if n == 0 or rounds == 0:
        return theta
    played = wins + wins.transpose(0, 2, 1)
    constant = np.full((n, n), 1.0 / n)
    diagonal = np.arange(n)
    value = objective(wins, theta, alpha)
    active = np.arange(rounds)
    for _ in range(MAX_ITERATIONS):
        if active.size == 0:
            break
        current, won, games = theta[active], wins[active], played[active]
        beats = expit(current[:, :, None] - current[:, None, :])
        curvature = games * beats * beats.transpose(0, 2, 1)
        hessian = constant - curvature
        hessian[:, diagonal, diagonal] += curvature.sum(axis=2) + alpha
        step = solve_positive_definite(hessian, gradient(won, current, alpha))
        scale = np.ones(active.size)
        candidate = current + step
        new_value = objective(won, candidate, alpha)
        for _ in range(MAX_HALVINGS):
            worse = new_value < value[active]
            if not worse.any():
                break
            scale[worse] /= 2
            candidate[worse] = current[worse] + scale[worse, None] * step[worse]
            new_value[worse] = objective(won[worse], candidate[worse], alpha)
        stuck = new_value < value[active]  # no step raises ℓ: the optimum to machine precision
        candidate[stuck] = current[stuck]
        new_value[stuck] = value[active][stuck]
        theta[active] = candidate
        value[active] = new_value
        moved = np.abs(scale[:, None] * step).max(axis=1)
        active = active[~stuck & (moved >= TOLERANCE)]
    else:
        if active.size:
            raise ArithmeticError(f"the Bradley–Terry fit did not converge in {MAX_ITERATIONS} Newton steps")
    result: Array = theta - theta.mean(axis=1, keepdims=True)
    return result
