# Fits the polynomial H(t) = erfcx(z) / t, t = 1 / (1 + z/2), of the training engine's float GELU (core/train/gelu.cpp).
#
# Run: /usr/bin/python3 bench/erfcx_fit.py   (Debian's python3-numpy and python3-mpmath)
# erfc(z) = t H(t) e^(-z^2) for z >= 0; H is smooth on t in [0, 1] with H(0) = 1 / (2 sqrt pi), so one polynomial
# in t covers every z. The fit minimises the relative error at 4,000 Chebyshev nodes (least squares, weights 1 / H),
# mpmath's erfc at 30 digits as the reference; it prints, per degree, the largest relative error on 20,001 even
# steps of t in exact arithmetic and with the coefficients rounded to float and Horner's rule run in float, then the
# float coefficients of the chosen degree (constant term first).
import mpmath as mp
import numpy as np

mp.mp.dps = 30
DEGREE = 10  # the degree gelu.cpp uses: the float evaluation's rounding dominates from here on


def h(t):
    t = mp.mpf(t)
    if t == 0:
        return 1 / (2 * mp.sqrt(mp.pi))
    z = 2 * (1 / t - 1)
    return mp.erfc(z) * mp.exp(z * z) / t


def fit(degree, nodes, values):
    vander = np.vander(nodes, degree + 1, increasing=True)
    coefficients, *_ = np.linalg.lstsq(vander / values[:, None], np.ones(len(nodes)), rcond=None)
    return coefficients


def horner_float(coefficients, t):
    c32 = coefficients.astype(np.float32)
    t32 = t.astype(np.float32)
    p = np.full(t.shape, c32[-1], dtype=np.float32)
    for c in c32[-2::-1]:
        p = (p * t32).astype(np.float32) + c
    return p.astype(np.float64)


def main():
    m = 4000
    nodes = (1 - np.cos(np.pi * (np.arange(m) + 0.5) / m)) / 2
    values = np.array([float(h(t)) for t in nodes])
    grid = np.linspace(0, 1, 20001)
    exact = np.array([float(h(t)) for t in grid])
    print("degree  max rel. error: exact   in float")
    for degree in range(8, 13):
        c = fit(degree, nodes, values)
        rel_exact = np.max(np.abs(np.polynomial.polynomial.polyval(grid, c) / exact - 1))
        rel_float = np.max(np.abs(horner_float(c, grid) / exact - 1))
        print(f"{degree:6d}  {rel_exact:20.2e}  {rel_float:9.2e}")
    c = fit(DEGREE, nodes, values).astype(np.float32)
    print(f"degree {DEGREE}, constant term first:", ", ".join("%.9ef" % x for x in c))


if __name__ == "__main__":
    main()
