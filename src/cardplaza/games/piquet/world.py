"""Invariants, information-set permutation and world sampling for Piquet."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

from cardplaza.core.cards import mask_of
from cardplaza.core.protocol import GameState, IllegalAction
from cardplaza.games.piquet import combos as pc
from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.state import (
    ADD,
    ASK,
    CALL,
    CLASS_NAMES,
    CODE_NAMES,
    DECL,
    EQUAL,
    EX_E,
    EX_Y,
    EXCH,
    GOOD,
    NOT_GOOD,
    OVER,
    PASS,
    PLAY,
    POINT,
    SAY,
    SEQ,
    SET,
    SHOW,
    SUIT,
    PiquetState,
)


def check_invariants(state: GameState) -> None:
    """Raise AssertionError if cards are not conserved or score sheets disagree."""
    assert isinstance(state, PiquetState)
    s = state
    played = 0
    for _, a, b, _w in s.tricks:
        played |= (1 << a) | (1 << b)
    if s.lead_card >= 0:
        played |= 1 << s.lead_card
    taken = max(s.e, 0) + max(s.y, 0)
    rest = mask_of(s.talon[taken:])
    parts = [s.hands[0], s.hands[1], s.discards[0], s.discards[1], rest, played]
    total = 0
    for p in parts:
        assert total & p == 0, "a card is in two places"
        total |= p
    assert total == pc.FULL, "the 32 cards are not all accounted for"
    assert len(s.talon) == 8 and len(set(s.talon)) == 8
    assert s.dealt[0] & s.dealt[1] == 0 and s.dealt[0].bit_count() == 12
    assert s.dealt[1].bit_count() == 12
    if s.phase in (DECL, PLAY) or (s.phase == OVER and s.y >= 0):
        n_played = [0, 0]
        for lead_s, _a, _b, _w in s.tricks:
            n_played[lead_s] += 1
            n_played[1 - lead_s] += 1
        if s.lead_card >= 0:
            n_played[s.leader] += 1
        for k in (0, 1):
            assert s.hands[k].bit_count() + n_played[k] == 12, "hand size wrong"
    assert s.won[0] + s.won[1] == len(s.tricks)
    for k in (0, 1):
        assert s.dscore[k] == sum(p for q, p, _ in s.events + s.pending if q == k), \
            "deal score differs from its events"
    totals = [0, 0]
    for sh in s.sheets:
        m = sh["multiplier"]
        for k in (0, 1):
            assert sh["counted"][k] == sh["raw"][k] * m, "doubling wrong"
            assert sh["raw"][k] == sum(p for q, p, _ in sh["events"] if q == k), \
                "sheet raw score differs from its events"
            totals[k] += sh["counted"][k]
        if sh["complete"]:
            assert sh["tricks"][0] + sh["tricks"][1] == 12
    assert totals == s.totals, "partie totals differ from the per-deal sheets"
    if s.result is not None:
        assert s.result[0] == -s.result[1], "result is not zero-sum"
        assert s.phase == OVER


# --------------------------------------------------------------------------- sampling
class _Reject(Exception):
    pass


def permute_unseen(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy where the cards ``seat`` cannot see are re-dealt among their hidden places."""
    assert isinstance(state, PiquetState)
    new = _sample(state.observation(seat), rng)
    new.rng = random.Random(rng.random())
    new.seed = state.seed
    return new


def sample_world(observation: dict[str, Any], rng: random.Random) -> GameState:
    """A full state consistent with ``observation`` (the opponent's cards re-dealt)."""
    return _sample(observation, rng)


def _base(obs: dict[str, Any], seed: int) -> PiquetState:
    opts = Options(**dict(obs["options"].items()))
    st = object.__new__(PiquetState)
    GameState.__init__(st, opts, seed, 2)
    st.o = opts
    st.first_dealer = obs["first_dealer"]
    st.scheduled = obs["deals_scheduled"] or 0
    st.extra = obs["extra_deals"]
    st.sheets = [dict(sh, raw=list(sh["raw"]), counted=list(sh["counted"]),
                      events=[list(e) for e in sh["events"]], tricks=list(sh["tricks"]))
                 for sh in obs["sheets"]]
    st.result = None
    st.result_info = None
    st.totals = [0, 0]
    for sh in st.sheets:
        st.totals[0] += sh["counted"][0]
        st.totals[1] += sh["counted"][1]
    if obs["result"] is not None and obs["phase"] == "over" and len(st.sheets) >= 1 and \
            obs["sheets"] and obs["sheets"][-1]["deal"] == obs["deal"]:
        # the partie ended with the current deal: rebuild it from before its sheet
        last = st.sheets.pop()
        for k in (0, 1):
            st.totals[k] -= last["counted"][k]
        if st.extra and len(st.sheets) < st.scheduled - 2:
            st.extra = False
            st.scheduled -= 2
    return st


def _sample(obs: dict[str, Any], rng: random.Random, tries: int = 4000) -> PiquetState:
    """Rejection sampling: uniform over the consistent worlds. When the opponent's calls
    make those rare (a "Point of three" hand is 3-3-3-3), a second round fills his hand
    card by card within what the calls allow."""
    codes = _say_codes(obs)
    for guided in (False, True):
        for _ in range(tries):
            try:
                st = _attempt(obs, rng, guided, codes)
            except _Reject:
                continue
            if st.observation(obs["seat"]) == obs:
                return st
    raise RuntimeError("no world consistent with the observation was found")


def _say_codes(obs: dict[str, Any]) -> list[tuple[int, int, int, str]] | None:
    """(seat, class, code, text) of each entry of the declaration dialogue, when every
    entry is an automatic reply (no sinking: nothing is chosen in private); else
    ``None``. The text is kept for Elder's calls and shows (the rest follow from the
    codes)."""
    if obs["options"].get("sinking") or any(obs["carte_blanche"]):
        return None
    out = []
    el = obs["elder"]
    for d in obs["dialogue"]:
        if d["kind"] != "say" or d["class"] not in CLASS_NAMES:
            return None
        code = CODE_NAMES.index(d["value"])
        text = str(d["text"]) if d["seat"] == el and code in (CALL, SHOW) else ""
        out.append((d["seat"], CLASS_NAMES.index(d["class"]), code, text))
    return out


def _key(hand: int, cls: int) -> tuple[int, int] | None:
    """A hand's comparison key of a class (point: count, pip; sequence: length, top; set:
    size, rank), ``None`` when it holds none (the engine's ``_key``)."""
    if cls == POINT:
        return pc.best_point(hand)[:2]
    comb = pc.sequences(hand) if cls == SEQ else pc.sets(hand)
    return (comb[0][0], comb[0][1]) if comb else None


def _dialogue_fits(elder: int, younger: int, el: int,
                   codes: list[tuple[int, int, int, str]]) -> bool:
    """Whether the declaration hands ``elder`` and ``younger`` (Elder is seat ``el``)
    would say ``codes``: Elder calls (naming his combination) or passes each class,
    Younger replies as the rules make him (the engine's truthful replies). A quick
    necessary condition checked before the engine replays the deal; it draws no random
    numbers, so rejecting here leaves the sampler's random stream as a rejection by the
    replay would."""
    yo = 1 - el
    expected: list[tuple[int, int, int, str]] = []
    for cls in (POINT, SEQ, SET):
        if len(expected) >= len(codes):
            break
        ke, ky = _key(elder, cls), _key(younger, cls)
        if ke is None:
            expected += [(el, cls, PASS, ""), (yo, cls, CALL if ky is not None else PASS, "")]
            continue
        if cls == POINT:
            pt = pc.best_point(elder)
            call, show = pc.point_text(pt), f"Making {pt[1]}"
        elif cls == SEQ:
            q = pc.sequences(elder)[0]
            call, show = pc.seq_text(q), f"To the {pc.RANK_WORD[q[1]]}"
        else:
            call, show = pc.set_text(pc.sets(elder)[0]), ""
        expected.append((el, cls, CALL, call))
        if ky is None or ky[0] < ke[0]:
            expected.append((yo, cls, GOOD, ""))
        elif ky[0] > ke[0]:
            expected.append((yo, cls, NOT_GOOD, ""))
        elif cls == SET:
            expected.append((yo, cls, GOOD if ky[1] < ke[1] else NOT_GOOD, ""))
        else:
            last = GOOD if ky[1] < ke[1] else NOT_GOOD if ky[1] > ke[1] else EQUAL
            expected += [(yo, cls, ASK, ""), (el, cls, SHOW, show), (yo, cls, last, "")]
    return expected[:len(codes)] == codes


def _attempt(obs: dict[str, Any], rng: random.Random, guided: bool = False,
             codes: list[tuple[int, int, int, str]] | None = None) -> PiquetState:
    seat = obs["seat"]
    el = obs["elder"]
    yo = 1 - el
    opp = 1 - seat
    ex = obs["exchanged"]
    e = ex["elder"]
    y = ex["younger"]
    seed = rng.randrange(1 << 30)  # the world's own seed, drawn before its layout
    layout = _layout(obs, rng, seat, el, yo, opp, e, y, guided)
    if codes and e is not None and y is not None:
        # the declaration hands after both exchanges, checked before any replay
        de = mask_of(obs["discards"]) if seat == el else layout[3]
        dy = mask_of(obs["discards"]) if seat == yo else layout[4]
        talon = layout[2]
        if not _dialogue_fits((layout[0] & ~de) | mask_of(talon[:e]),
                              (layout[1] & ~dy) | mask_of(talon[e:e + y]), el, codes):
            raise _Reject
    st = _base(obs, seed)
    st._start_deal(layout)
    if st.phase == OVER:
        return st
    # replay the deal's actions
    if e is not None:
        de = mask_of(obs["discards"]) if seat == el else layout[3]
        _do(st, (EXCH, de))
    if y is not None:
        dy = mask_of(obs["discards"]) if seat == yo else layout[4]
        _do(st, (EXCH, dy))
    shown_by: dict[tuple[int, str], int] = {}
    suit_by: dict[tuple[int, str], int] = {}
    for sh in obs["shown"] + obs["pending_shown"]:
        key = (sh["seat"], sh["class"])
        cards = mask_of(sh["cards"])
        if sh["class"] == "point":
            suit_by[key] = sh["cards"][0] >> 3
        shown_by[key] = shown_by.get(key, 0) | cards
    for entry in obs["dialogue"]:
        if st.phase != DECL:
            raise _Reject
        kind = entry["kind"]
        if kind == "say":
            _do(st, (SAY, CODE_NAMES.index(entry["value"])))
        elif kind == "add":
            _do(st, (ADD, mask_of(entry["value"])))
        elif kind == "point_suit":
            _do(st, (SUIT, entry["value"]))
        else:  # the opponent's hidden choice
            legal = st.legal_actions()
            key = (entry["seat"], entry["class"])
            if key in shown_by and legal and legal[0][0] == ADD:  # type: ignore[index]
                best = _best_mask(st, entry["seat"], st.cls)
                _do(st, (ADD, shown_by[key] & ~best))
            elif key in suit_by and legal and legal[0][0] == SUIT:  # type: ignore[index]
                _do(st, (SUIT, suit_by[key]))
            else:
                _do(st, legal[rng.randrange(len(legal))])
    for t in obs["tricks"]:
        _do(st, t["cards"][0])
        _do(st, t["cards"][1])
    if obs["trick"]["cards"]:
        _do(st, obs["trick"]["cards"][0])
    return st


def _best_mask(st: PiquetState, seat: int, cls: int) -> int:
    if cls == SEQ:
        return int(st._comb(seat, SEQ)[0][3])
    if cls == SET:
        return int(st._comb(seat, SET)[0][2])
    return 0


def _do(st: PiquetState, action: Any) -> None:
    if st.phase == OVER:
        raise _Reject
    try:
        st.apply(action)  # checks legality once (state unchanged when illegal)
    except IllegalAction:
        raise _Reject from None


def _pick(pool: list[int], n: int, rng: random.Random) -> list[int]:
    if n < 0 or n > len(pool):
        raise _Reject
    chosen = rng.sample(pool, n)
    for c in chosen:
        pool.remove(c)
    return chosen


def _layout(obs: dict[str, Any], rng: random.Random, seat: int, el: int, yo: int, opp: int,
            e: int | None, y: int | None, guided: bool,
            ) -> tuple[int, int, list[int], int, int]:
    """(dealt_elder, dealt_younger, talon, elder_discards, younger_discards)."""
    own_dealt = mask_of(obs["dealt"])
    cb = obs["carte_blanche"]
    revealed = obs["revealed_dealt"]
    opp_dealt_known = mask_of(revealed[str(opp)]) if str(opp) in revealed else None
    # cards known to be in the opponent's declaration hand
    known_opp = 0
    for sh in obs["shown"] + obs["pending_shown"]:
        if sh["seat"] == opp:
            known_opp |= mask_of(sh["cards"])
    voids = 0
    for t in obs["tricks"]:
        a, b = t["cards"]
        if t["leader"] == opp:
            known_opp |= 1 << a
        else:
            known_opp |= 1 << b
            if a >> 3 != b >> 3:
                voids |= pc.suit_mask(a >> 3)
    if obs["trick"]["cards"] and obs["trick"]["leader"] == opp:
        known_opp |= 1 << obs["trick"]["cards"][0]
    untaken = mask_of(obs["untaken"])
    if e is None:
        # before any exchange: only the dealt hands and the talon order are hidden
        pool = [c for c in range(32) if not own_dealt >> c & 1]
        if opp_dealt_known is not None:
            od = opp_dealt_known
            rest = [c for c in pool if not od >> c & 1]
        elif cb[opp]:
            blanks = [c for c in pool if not pc.COURT_MASK >> c & 1]
            od = mask_of(_pick(blanks, 12, rng))
            rest = [c for c in pool if not od >> c & 1]
        else:
            od = mask_of(_pick(pool, 12, rng))
            rest = pool
        rng.shuffle(rest)
        if seat == el:
            return own_dealt, od, rest, 0, 0
        return od, own_dealt, rest, 0, 0
    # elder's exchange is done (e known)
    if seat == el:
        # talon T1..T5 known: drawn (in some order) + seen
        seen = [d["card"] for d in sorted(obs["talon_seen"], key=lambda d: d["position"])]
        my_drawn = list(obs["drawn"])
        rng.shuffle(my_drawn)
        top = my_drawn + seen
        assert len(top) == 5
        my_disc = mask_of(obs["discards"])
        if y is None:
            pool = [c for c in range(32) if not (own_dealt | mask_of(top)) >> c & 1]
            if opp_dealt_known is not None:
                od = opp_dealt_known
            elif cb[opp]:
                raise _Reject
            else:
                od = mask_of(_pick(pool, 12, rng))
            low = [c for c in pool if not od >> c & 1]
            rng.shuffle(low)
            return own_dealt, od, top + low, my_disc, 0
        y_from_top = seen[:max(0, min(y, 5 - e))]
        n_low = max(0, e + y - 5)
        known_opp |= mask_of(y_from_top)
        pool = [c for c in range(32)
                if not (own_dealt | mask_of(top) | known_opp | untaken) >> c & 1]
        if opp_dealt_known is not None:
            od = opp_dealt_known
            cand = [c for c in range(32) if od >> c & 1 and not known_opp >> c & 1]
            ydisc = mask_of(_pick(cand, y, rng))
            low = [c for c in range(32) if not (own_dealt | od | mask_of(top)) >> c & 1]
            rng.shuffle(low)
            return own_dealt, od, top + low, my_disc, ydisc
        hand_unknown = _fill_hand(obs, opp, known_opp, pool, voids, rng, guided)
        pool = [c for c in pool if not hand_unknown >> c & 1]
        ydisc = mask_of(_pick(pool, y, rng))
        ydecl = known_opp | hand_unknown
        # which declaration cards came from T6..T8
        low_cands = [c for c in range(32) if ydecl >> c & 1 and not mask_of(y_from_top) >> c & 1]
        low_drawn = _pick(low_cands, n_low, rng)
        rest_untaken = [c for c in range(32) if untaken >> c & 1 and not mask_of(top) >> c & 1]
        rest_untaken += pool
        rng.shuffle(rest_untaken)
        low = low_drawn + rest_untaken
        if len(low) != 3:
            raise _Reject
        od = (ydecl & ~mask_of(y_from_top) & ~mask_of(low_drawn)) | ydisc
        return own_dealt, od, top + low, my_disc, ydisc
    # seat is Younger, e known
    my_drawn = list(obs["drawn"])
    rng.shuffle(my_drawn)
    my_disc = mask_of(obs["discards"]) if y is not None else 0
    mine = own_dealt | mask_of(my_drawn)
    if opp_dealt_known is not None:
        od = opp_dealt_known
        cand = [c for c in range(32) if od >> c & 1 and not known_opp >> c & 1]
        edisc = mask_of(_pick(cand, e, rng))
        pool = [c for c in range(32) if not (od | mine | untaken) >> c & 1]
        e_drawn = _pick(pool, e, rng)
        rest = [c for c in range(32) if untaken >> c & 1] + pool
        rng.shuffle(rest)
        if y is None:
            return od, own_dealt, e_drawn + rest, edisc, 0
        return od, own_dealt, e_drawn + my_drawn + rest, edisc, my_disc
    pool = [c for c in range(32) if not (mine | known_opp | untaken) >> c & 1]
    hand_unknown = _fill_hand(obs, opp, known_opp, pool, voids, rng, guided)
    pool = [c for c in pool if not hand_unknown >> c & 1]
    edisc = mask_of(_pick(pool, e, rng))
    edecl = known_opp | hand_unknown
    cands = [c for c in range(32) if edecl >> c & 1]
    e_drawn = _pick(cands, e, rng)
    rest = [c for c in range(32) if untaken >> c & 1] + pool
    rng.shuffle(rest)
    od = (edecl & ~mask_of(e_drawn)) | edisc
    if y is None:
        return od, own_dealt, e_drawn + rest, edisc, 0
    return od, own_dealt, e_drawn + my_drawn + rest, edisc, my_disc


_NUM = {w: n for n, w in pc.NUMBER_WORD.items()}
_SEQ_LEN = {w: n for n, w in pc.SEQ_NAME.items()}
_RANK = {w: r for r, w in enumerate(pc.RANK_WORD)}
_RANK_PL = {w: r for r, w in enumerate(pc.RANK_PLURAL)}


def _calls(obs: dict[str, Any], opp: int) -> dict[str, list[str]]:
    """The opponent's calls per class whose combination was not shown."""
    shown = {sh["class"] for sh in obs["shown"] + obs["pending_shown"] if sh["seat"] == opp}
    out: dict[str, list[str]] = {}
    for d in obs["dialogue"]:
        if d["seat"] == opp and d["kind"] == "say" and d["value"] in ("call", "show") \
                and d["class"] not in shown:
            out.setdefault(d["class"], []).append(d["text"])
    return out


def _called(cls: str, words: list[str]) -> tuple[int, int] | None:
    """What a call's words name: a point's cards or a sequence's length as ``(n, 0)``, a
    set as ``(size, rank)``; ``None`` when they are no call of that class."""
    if cls == "point" and words[:2] == ["Point", "of"]:
        return _NUM[words[2]], 0
    if cls == "sequence" and words[0] in _SEQ_LEN:
        return _SEQ_LEN[words[0]], 0
    if cls == "set" and words[0] in ("Trio", "Quatorze"):
        return (3 if words[0] == "Trio" else 4), _RANK_PL[words[2]]
    return None


def _fill_hand(obs: dict[str, Any], opp: int, known: int, pool: list[int], voids: int,
               rng: random.Random, guided: bool) -> int:
    """Unknown cards of the opponent's declaration hand, planting what his calls imply;
    ``guided``: the rest also kept within what his calls and passes allow."""
    need = 12 - known.bit_count()
    ok = [c for c in pool if not voids >> c & 1]
    okm = mask_of(ok)
    planted = 0
    for cls, texts in _calls(obs, opp).items():
        words = [t.split() for t in texts]
        call = _called(cls, words[0])
        if call is None:
            continue
        if cls == "point":
            pip = int(words[1][1]) if len(words) > 1 and words[1][0] == "Making" else None
            planted |= _plant_point(call[0], pip, known | planted, okm & ~planted, rng)
        elif cls == "sequence":
            length = call[0]
            top = _RANK[words[1][2]] if len(words) > 1 and words[1][0] == "To" else None
            tops = [top] if top is not None else list(range(length - 1, 8))
            options = []
            for s in range(4):
                for t in tops:
                    run = ((1 << length) - 1) << (t - length + 1 + 8 * s)
                    if not run & ~(known | planted | okm):
                        options.append(run & ~(known | planted))
            if not options:
                raise _Reject
            planted |= rng.choice(options)
        else:
            size, r = call
            have = pc.rank_mask(r) & (known | planted)
            free = [c for c in range(32) if (pc.rank_mask(r) & okm & ~planted) >> c & 1]
            extra = size - have.bit_count()
            if extra < 0:
                raise _Reject
            planted |= mask_of(_pick(free, extra, rng))
    if planted.bit_count() > need:
        raise _Reject
    rest = [c for c in ok if not planted >> c & 1]
    fits = _bounds(obs, opp) if guided else None
    if fits is None:
        return planted | mask_of(_pick(rest, need - planted.bit_count(), rng))
    # Add the free cards one by one in random order, skipping any that would give the
    # hand a combination its calls and passes deny (a longer point, a sequence after
    # "No sequence", ...): a hand of 3-3-3-3 after "Point of three" is otherwise
    # almost never drawn.
    hand = known | planted
    if not fits(hand):
        raise _Reject
    rng.shuffle(rest)
    missing = need - planted.bit_count()
    for c in rest:
        if not missing:
            break
        if fits(hand | 1 << c):
            hand |= 1 << c
            missing -= 1
    if missing:
        raise _Reject
    return hand & ~known


def _bounds(obs: dict[str, Any], opp: int) -> Callable[[int], bool] | None:
    """What the opponent's calls and passes rule out in his declaration hand, as a test
    of a (partial) hand; ``None`` when they rule out nothing or may hide a combination
    (sinking)."""
    if obs["options"].get("sinking"):
        return None
    max_point = 8
    max_seq = 8
    top_set = (4, 7)  # (size, rank) of the best set allowed
    for d in obs["dialogue"]:
        if d["seat"] != opp or d["kind"] != "say" or d["value"] not in ("call", "pass"):
            continue
        cls = d["class"]
        if d["value"] == "pass":
            if cls == "sequence":
                max_seq = 2
            elif cls == "set":
                top_set = (2, 7)
            continue
        call = _called(cls, str(d["text"]).split())
        if call is None:
            continue
        if cls == "point":
            max_point = call[0]
        elif cls == "sequence":
            max_seq = call[0]
        else:
            top_set = call
    if (max_point, max_seq, top_set) == (8, 8, (4, 7)):
        return None
    size, rank = top_set

    def fits(hand: int) -> bool:
        for s in range(4):
            suit = hand >> (8 * s) & 0xFF
            if suit.bit_count() > max_point:
                return False
            if any(length > max_seq for length, _top in pc.RUNS[suit]):
                return False
        for r in range(3, 8):
            n = (hand & pc.rank_mask(r)).bit_count()
            if n > size or (n == size >= 3 and r > rank):
                return False
        return True

    return fits


def _plant_point(n: int, pip: int | None, have: int, free: int, rng: random.Random) -> int:
    options: list[int] = []
    for s in range(4):
        sm = pc.suit_mask(s)
        mine = have & sm
        avail = [c for c in range(32) if (free & sm) >> c & 1]
        k = n - mine.bit_count()
        if k < 0 or k > len(avail):
            continue
        for combo in itertools.combinations(avail, k):
            cards = mine | mask_of(combo)
            if pip is None or pc.PIPSUM[cards >> (8 * s) & 0xFF] == pip:
                options.append(mask_of(combo))
            if len(options) > 400:
                break
    if not options:
        raise _Reject
    return rng.choice(options)


__all__ = ["EX_E", "EX_Y", "check_invariants", "permute_unseen", "sample_world"]
