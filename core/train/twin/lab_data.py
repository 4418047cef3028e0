"""The data half of the PyTorch twin (lab.py imports it): peviz's task streams, position ids and dropout masks, bit
for bit.

std::mt19937_64 re-implemented, so one seed gives peviz's batches (core/train/tasks.cpp) and the fixes' position ids
(core/train/positions.cpp) draw for draw; the padding that stands in for peviz's packing; SplitMix64's hash, so
dropout drops what peviz drops (core/train/dropout.hpp). Written beside lab.py
by `peviz train ... --emit-pytorch DIR`; PyTorch and the standard library only.
"""
import torch

SYMBOLS, BOS, SEP, EOS, VOCAB = 10, 10, 11, 12, 13
MASK64 = (1 << 64) - 1
DATA_STREAM = 0xA0761D6478BD642F  # core/train/run.cpp kDataStream: training batches, a stream apart from init
POSITION_STREAM = 0xE7037ED1A0B428DB  # run.cpp kPositionStream: sampled training ids
TEST_POSITION_STREAM = 0x8CB92BA72F3D8DD7  # positions.cpp kTestPositionStream: sampled test ids


# ---- the task streams (core/train/tasks.cpp) ------------------------------------------------------------------

class MT19937_64:
    """std::mt19937_64 (C++11 [rand.predef]: w 64, n 312, m 156, r 31, a 0xB5026F5AA96619E9, u 29,
    d 0x5555555555555555, s 17, b 0x71D67FFFEDA60000, t 37, c 0xFFF7EEE000000000, l 43, f 6364136223846793005)."""

    def __init__(self, seed):
        mt = [seed & MASK64]
        for i in range(1, 312):
            mt.append((6364136223846793005 * (mt[-1] ^ (mt[-1] >> 62)) + i) & MASK64)
        self.mt, self.i = mt, 312

    def _twist(self):
        mt = self.mt
        for i in range(312):
            x = (mt[i] & 0xFFFFFFFF80000000) | (mt[(i + 1) % 312] & 0x7FFFFFFF)
            mt[i] = mt[(i + 156) % 312] ^ (x >> 1) ^ (0xB5026F5AA96619E9 if x & 1 else 0)
        self.i = 0

    def __call__(self):
        if self.i >= 312:
            self._twist()
        y = self.mt[self.i]
        self.i += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        return (y ^ (y >> 43)) & MASK64


def sequence_length(task, n):
    """tasks.hpp sequence_length: 2n + 3 tokens, 3n + 5 on add."""
    return 3 * n + 5 if task == "add" else 2 * n + 3


def input_symbols(task, n):
    """tasks.hpp input_symbols: the random digits a sequence is made of (both operands on add)."""
    return 2 * n if task == "add" else n


def answer_start(task, n):
    """tasks.hpp first_answer_target: the (last) SEP, whose prediction is the answer's first token."""
    return 2 * n + 2 if task == "add" else n + 1


def addition_sequence(digits):
    """BOS a SEP b SEP c EOS, a and b the halves of digits, c = a + b, least significant digit first (tasks.cpp)."""
    n, carry, c = len(digits) // 2, 0, []
    for k in range(n):
        total = digits[k] + digits[n + k] + carry
        c.append(total % 10)
        carry = total // 10
    return [BOS] + list(digits[:n]) + [SEP] + list(digits[n:]) + [SEP] + c + [carry, EOS]


def task_sequence(task, symbols):
    """BOS x1..xn SEP y1..yn EOS, or add's (tasks.cpp task_sequence); a task of peviz's table it does not know is
    refused."""
    if task == "add":
        return addition_sequence(symbols)
    if task == "copy":
        answer = list(symbols)
    elif task == "reverse":
        answer = symbols[::-1]
    elif task == "sort":
        answer = sorted(symbols)
    else:
        raise ValueError(f"the twin has no task {task!r}")
    return [BOS] + list(symbols) + [SEP] + answer + [EOS]


def random_symbols(rng, n):
    return [rng() % SYMBOLS for _ in range(n)]


def training_batch(task, batch, train_max, rng):
    """`batch` sequences with n uniform in [1, train_max], as (sequence, n) pairs in peviz's order."""
    out = []
    for _ in range(batch):
        n = 1 + rng() % train_max
        out.append((task_sequence(task, random_symbols(rng, input_symbols(task, n))), n))
    return out


def randomized_positions(length, range_, rng):
    """Sorted distinct ids of [0, range_) (positions.cpp: selection sampling, one draw rng() % (range_ - i) per id)."""
    ids = []
    for i in range(range_):
        if len(ids) == length:
            break
        if rng() % (range_ - i) < length - len(ids):
            ids.append(i)
    return ids


def coupled_positions(task, n, s):
    """positions.cpp coupled_positions: BOS s, x_i s + i, then SEP and y_k sharing their input's id, EOS; on add the
    digits of 10^k (a_k, b_k, c_k) share s + 1 + k."""
    if task == "add":
        digits = [s + 1 + k for k in range(n)]
        return [s] + digits + [s + n + 1] + digits + [s] + [s + 1 + k for k in range(n + 1)] + [s + n + 2]
    if task == "reverse":
        return [s] + [s + i for i in range(1, n + 1)] + [s + n + 1] + [s + n + 1 - k for k in range(1, n + 1)] + [s]
    return [s] + [s + i for i in range(1, n + 1)] + [s] + [s + k for k in range(1, n + 1)] + [s + n + 1]


def abacus_positions(task, n, offset):
    """positions.cpp abacus_positions: each digit its 1-based index within its number plus offset; the rest 0."""
    run = lambda count: [offset + i for i in range(1, count + 1)]
    if task == "add":
        return [0] + run(n) + [0] + run(n) + [0] + run(n + 1) + [0]
    return [0] + run(n) + [0] + run(n) + [0]


def abacus_span(task, n):
    return n + 1 if task == "add" else n


def batch_positions(cfg, pairs, rng):
    """Each training sequence's ids (positions.cpp sample_batch_positions): 0..L-1, or drawn from rng; cfg["positions"]
    names the encoding's sampler (lab.py run_config, from peviz's table). Abacus draws one offset per batch first."""
    sampler, range_, out = cfg["positions"], cfg["position_range"], []
    if sampler == "abacus":
        offset = rng() % (range_ - abacus_span(cfg["task"], max(n for _, n in pairs)))
    for seq, n in pairs:
        if sampler == "randomized":
            out.append(randomized_positions(len(seq), range_, rng))
        elif sampler == "coupled":
            span = n + 2 if cfg["task"] == "add" else n + 1  # positions.cpp coupled_span
            out.append(coupled_positions(cfg["task"], n, rng() % (range_ - span)))
        elif sampler == "abacus":
            out.append(abacus_positions(cfg["task"], n, offset))
        elif sampler == "random-start":
            start = rng() % (range_ - len(seq) + 1)
            out.append(list(range(start, start + len(seq))))
        elif sampler == "contiguous":
            out.append(list(range(len(seq))))
        else:
            raise ValueError(f"the twin has no position sampler {sampler!r}")
    return out


def test_positions(cfg, n, count):
    """positions.cpp test_positions: randomized ids from a stream seeded by (seed, n); coupled and abacus from 0."""
    sampler, L = cfg["positions"], sequence_length(cfg["task"], n)
    if sampler == "coupled":
        return [coupled_positions(cfg["task"], n, 0)] * count
    if sampler == "abacus":
        return [abacus_positions(cfg["task"], n, 0)] * count
    if sampler in ("contiguous", "random-start"):
        return [list(range(L))] * count
    if sampler != "randomized":
        raise ValueError(f"the twin has no position sampler {sampler!r}")
    rng = MT19937_64(cfg["seed"] ^ TEST_POSITION_STREAM ^ ((0xD1B54A32D192ED03 * (n + 1)) & MASK64))
    return [randomized_positions(L, cfg["position_range"], rng) for _ in range(count)]


def test_lengths(test_max):
    return list(range(5, test_max + 1, 5)) + ([test_max] if test_max % 5 else [])


def test_sequences(task, n, count, seed):
    """The fixed test set of one length: a stream seeded by (seed, n) only."""
    rng = MT19937_64(seed ^ ((0xD1B54A32D192ED03 * (n + 1)) & MASK64))
    return [task_sequence(task, random_symbols(rng, input_symbols(task, n))) for _ in range(count)]


def pad(pairs, ids, device):
    """Sequences padded at the end: tokens [B, T]; their position ids [B, T] (0 where padded); targets [B, T], the
    next token at the last SEP and at every answer symbol, else -1 (core/train/packed_batch.cpp: token i,
    first_target <= i < L - 1, targets seq[i + 1]; first_target the last SEP, n + 1 or 2n + 2 on add)."""
    T = max(len(s) for s, _ in pairs)
    tokens = torch.zeros(len(pairs), T, dtype=torch.long)
    positions = torch.zeros(len(pairs), T, dtype=torch.long)
    targets = torch.full((len(pairs), T), -1, dtype=torch.long)
    for b, ((s, n), p) in enumerate(zip(pairs, ids)):
        tokens[b, :len(s)] = torch.tensor(s)
        positions[b, :len(s)] = torch.tensor(p)
        first = len(s) - 1 - s[::-1].index(SEP)  # the last SEP
        targets[b, first:len(s) - 1] = torch.tensor(s[first + 1:])
    return tokens.to(device), positions.to(device), targets.to(device)


# ---- dropout's masks (core/train/dropout.hpp) --------------------------------------------------------------------

DROPOUT_STREAM, GOLDEN = 0x8BB84B93962EACC9, 0x9E3779B97F4A7C15  # dropout.hpp kDropoutStream, kGolden
DROPOUT_SITES = 3  # attention 0, the attention branch 1, the MLP branch 2


def mix64(z):
    """SplitMix64's output function (dropout.hpp mix64) on a uint64 Python int."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def signed64(v):
    """A uint64 as the int64 of the same bits (a torch.long holds it)."""
    v &= MASK64
    return v - (1 << 64) if v >> 63 else v


def mix64_tensor(z):
    """mix64 on an int64 tensor: products wrap as uint64's do (two's complement); torch's >> on int64 is arithmetic,
    so each logical shift right by k masks the top k bits after it."""
    def srl(x, k):
        return (x >> k) & ((1 << (64 - k)) - 1)
    z = (z ^ srl(z, 30)) * signed64(0xBF58476D1CE4E5B9)
    z = (z ^ srl(z, 27)) * signed64(0x94D049BB133111EB)
    return z ^ srl(z, 31)


class Dropout:
    """One training step's masks (dropout.hpp): element i of a site is dropped iff mix64(site key + (i + 1) GOLDEN) >> 40
    is below round(p 2^24), else scaled by 1 / (1 - p). Element indices are peviz's packing's: each sequence of the
    global batch has its first token and its first attention value there; `rows` keeps this rank's sequences."""

    def __init__(self, p, seed, step, lengths, heads, device, rows=slice(None)):
        self.key = mix64((mix64(seed ^ DROPOUT_STREAM) + step) & MASK64)
        self.threshold, self.scale = int(p * 2 ** 24 + 0.5), 1.0 / (1.0 - p)  # llround for p >= 0
        L = torch.tensor(lengths, dtype=torch.long)
        self.start = (torch.cumsum(L, 0) - L)[rows].to(device)
        self.att = (torch.cumsum(heads * L * L, 0) - heads * L * L)[rows].to(device)
        self.lengths = L[rows].to(device)

    def factor(self, layer, site, index, dtype):
        key = mix64((self.key + layer * DROPOUT_SITES + site) & MASK64)
        bits = mix64_tensor((index + 1) * signed64(GOLDEN) + signed64(key))
        return (((bits >> 40) & ((1 << 24) - 1)) >= self.threshold).to(dtype) * self.scale

    def attention(self, layer, shape, dtype):
        """[B, H, T, T] factors of the probabilities: element att_b + h L_b^2 + i L_b + j."""
        B, H, T, _ = shape
        L, r = self.lengths[:, None, None, None], torch.arange(T, device=self.lengths.device)
        h = torch.arange(H, device=L.device)[None, :, None, None]
        return self.factor(layer, 0, self.att[:, None, None, None] + h * L * L + r[:, None] * L + r, dtype)

    def branch(self, layer, site, shape, dtype):
        """[B, T, d] factors of a residual branch (site 1: attention's, 2: the MLP's): element (start_b + i) d + c."""
        B, T, d = shape
        r, c = torch.arange(T, device=self.start.device), torch.arange(d, device=self.start.device)
        return self.factor(layer, site, (self.start[:, None, None] + r[:, None]) * d + c, dtype)


def step_dropout(cfg, step, pairs, device, world=1, rank=0):
    """The masks of 0-based training step `step` (run.cpp: training_dropout), rows of this rank; None when off."""
    return Dropout(cfg["dropout"], cfg["seed"], step, [len(s) for s, _ in pairs], cfg["heads"], device,
                   slice(rank, None, world)) if cfg.get("dropout", 0) else None
