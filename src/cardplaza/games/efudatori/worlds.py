"""Invariants, unseen-card permutation and the determinizer for E-fuda-tori."""

from __future__ import annotations

import random
from typing import Any

from cardplaza.core.cards import bits
from cardplaza.core.protocol import TERMINAL, GameState
from cardplaza.games.efudatori import rules
from cardplaza.games.efudatori.rules import HAND_SIZE, JOKER, JOKER_BIT, Options
from cardplaza.games.efudatori.state import DrawRecord, EfudatoriState


def check_invariants(state: GameState) -> None:
    """Raise AssertionError if cards are not conserved or the scores do not add up."""
    assert isinstance(state, EfudatoriState)
    s = state
    n = s.num_players
    assert s.deck == rules.deck_mask(n)
    trick_mask = rules.mask_of_list(s.trick)
    stock_mask = rules.mask_of_list(s.stock)
    assert len(s.trick) == trick_mask.bit_count() < n, "trick cards"
    assert len(s.stock) == stock_mask.bit_count(), "stock holds duplicates"
    parts = [*s.hands, *s.captured, stock_mask, trick_mask]
    union = 0
    total = 0
    for m in parts:
        assert union & m == 0, "a card is in two places"
        union |= m
        total += m.bit_count()
    assert union == s.deck and total == s.deck.bit_count(), "cards not conserved"
    done = len(s.tricks_log)
    assert sum(m.bit_count() for m in s.captured) == done * n
    assert len(s.stock) % n == 0, "stock is not a multiple of the players"
    initial_stock = s.deck.bit_count() - HAND_SIZE * n
    assert len(s.draws_log) == min(done, initial_stock // n)
    assert len(s.stock) == initial_stock - n * len(s.draws_log)
    played = {(s.leader + i) % n for i in range(len(s.trick))}
    sizes = {s.hands[p].bit_count() + (p in played) for p in range(n)}
    assert len(sizes) == 1, f"hand sizes differ: {[m.bit_count() for m in s.hands]}"
    for p in range(n):
        assert s.known[p] & ~s.hands[p] == 0, "known cards must be in the hand"
    for i, (leader, cards, w) in enumerate(s.tricks_log):
        idx = rules.trick_winner_index(cards, i + 1)
        assert (leader + idx) % n == w, f"trick {i + 1} winner"
    if s.cur == TERMINAL:
        assert done == s.tricks_total
        assert not s.stock and all(m == 0 for m in s.hands)
        sets = sum(rules.complete_sets(m) for m in s.captured)
        expected = rules.FACE_TOTAL + (0 if s.options.simple_scoring else rules.SET_BONUS * sets)
        assert sum(s.scores()) == expected, "score total"
    else:
        assert done == s.trick_number - 1
        assert s.cur == (s.leader + len(s.trick)) % n


def permute_unseen(state: GameState, seat: int, rng: random.Random) -> GameState:
    """Copy where every card ``seat`` cannot see is re-dealt among the hidden places.

    Hidden places: the other players' cards not publicly known (dealt or drawn face down)
    and the whole stock. Sizes are kept; whatever ``seat`` saw is unchanged.
    """
    assert isinstance(state, EfudatoriState)
    new = state.clone()
    n = new.num_players
    unseen: list[int] = []
    for p in range(n):
        if p != seat:
            unseen.extend(bits(new.hands[p] & ~new.known[p]))
    unseen.extend(new.stock)
    shuffled = list(unseen)
    rng.shuffle(shuffled)
    mapping = dict(zip(unseen, shuffled, strict=True))
    for p in range(n):
        if p != seat:
            hidden = new.hands[p] & ~new.known[p]
            new.hands[p] = new.known[p] | rules.mask_of_list([mapping[c] for c in bits(hidden)])
    new.stock = [mapping[c] for c in new.stock]
    new.draws_log = [(k, w, mapping.get(fd, fd) if w != seat else fd, ups)
                     for k, w, fd, ups in new.draws_log]
    return new


Constraint = tuple[int, int, int]
"""``(seat, forbidden mask, allowance)``: at most ``allowance`` hidden cards of the mask."""


def inferred_constraints(obs: dict[str, Any]) -> list[Constraint]:
    """What the public play reveals about hidden hands (voids, no trump, no Joker).

    A void revealed at trick k still binds the player's hidden cards now, except for as many
    cards as he has drawn face down since (minus those of the void already played from them).
    """
    n = obs["players"]
    me = obs["seat"]
    face_up_of: list[int] = [0] * n
    fd_after: list[list[int]] = [[] for _ in range(n)]
    for d in obs["draws"]:
        fd_after[d["winner"]].append(d["after_trick"])
        for q, c in d["face_up"]:
            face_up_of[q] |= 1 << c
    plays: list[tuple[int, int, list[list[int]]]] = [
        (t["number"], t["trump"], t["cards"]) for t in obs["tricks"]]
    if obs["trick"]:
        plays.append((obs["trick_number"], obs["trump"], obs["trick"]))
    hidden_played: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (trick, card)
    for k, _, cards in plays:
        for p, c in cards:
            if not face_up_of[p] >> c & 1:
                hidden_played[p].append((k, c))
    out: list[Constraint] = []
    for k, trump, cards in plays:
        led = cards[0][1]
        before = 0
        for i, (p, c) in enumerate(cards):
            forbid = 0
            if i == 0:
                if k == 1 and not rules.FIRST_LEAD_OK >> c & 1:
                    forbid = rules.FIRST_LEAD_OK
            elif c != JOKER:
                if before & rules.SPADE_THREE_BIT:
                    forbid |= JOKER_BIT
                free = True
                if before & JOKER_BIT:
                    if c // 13 == trump:
                        free = False
                    else:
                        forbid |= rules.SUIT_MASK[trump]
                if free and led != JOKER and c // 13 != led // 13:
                    forbid |= rules.SUIT_MASK[led // 13]
            before |= 1 << c
            if forbid and p != me:
                allowance = sum(1 for a in fd_after[p] if a >= k)
                allowance -= sum(1 for kk, cc in hidden_played[p]
                                 if kk > k and forbid >> cc & 1)
                out.append((p, forbid, max(allowance, 0)))
    return out


def _match(slots: list[int], allowed: list[int], cards: list[int],
           rng: random.Random) -> list[int] | None:
    """Assign distinct cards to slots (slot i takes a card of ``allowed[owner]``)."""
    order = list(range(len(slots)))
    rng.shuffle(order)
    cards = list(cards)
    rng.shuffle(cards)
    holder: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        ok = allowed[slots[i]]
        for c in cards:
            if ok >> c & 1 and c not in seen:
                seen.add(c)
                if c not in holder or augment(holder[c], seen):
                    holder[c] = i
                    return True
        return False

    for i in order:
        if not augment(i, set()):
            return None
    out = [0] * len(slots)
    for c, i in holder.items():
        out[i] = c
    return out


def sample_world(obs: dict[str, Any], rng: random.Random) -> GameState:
    """A full state consistent with ``obs`` (hidden hands and stock sampled).

    Known cards stay where they are; voids, missing trumps and a missing Joker revealed by
    play are respected (hard while no face-down card was drawn since, counted otherwise).
    """
    n = obs["players"]
    me = obs["seat"]
    options = Options(players=n, names=tuple(obs["names"]),
                      simple_scoring=obs["simple_scoring"])
    st = object.__new__(EfudatoriState)
    GameState.__init__(st, options, rng.randrange(1 << 30), n)
    st.deck = rules.deck_mask(n)
    st.tricks_total = obs["tricks_total"]
    st.names = tuple(obs["names"])
    st.dealer = obs["dealer"]
    st.trick_number = obs["trick_number"]
    st.leader = obs["leader"]
    st.cur = obs["to_play"]
    st.is_terminal = st.cur == TERMINAL
    st.trick = [c for _, c in obs["trick"]]
    st.captured = [rules.mask_of_list(m) for m in obs["captured"]]
    st.known = [rules.mask_of_list(m) for m in obs["known_cards"]]
    st.tricks_log = [(t["leader"], tuple(c for _, c in t["cards"]), t["winner"])
                     for t in obs["tricks"]]
    st.history = [(p, c) for t in obs["tricks"] for p, c in t["cards"]]
    st.history += [(p, c) for p, c in obs["trick"]]
    own = rules.mask_of_list(obs["hand"])
    visible = own | rules.mask_of_list(st.trick)
    for p in range(n):
        visible |= st.captured[p] | st.known[p]
    pool = list(bits(st.deck & ~visible))
    sizes = obs["hand_sizes"]
    slots: list[int] = []
    for p in range(n):
        if p != me:
            slots.extend([p] * (sizes[p] - st.known[p].bit_count()))
    if len(pool) != len(slots) + obs["stock_size"]:
        raise ValueError("observation is inconsistent: unseen cards do not fill the hidden places")
    constraints = inferred_constraints(obs)
    hard = [st.deck] * n
    soft: list[Constraint] = []
    for p, forbid, allowance in constraints:
        if allowance == 0:
            hard[p] &= ~forbid
        else:
            soft.append((p, forbid, allowance))
    assignment: list[int] | None = None
    for _ in range(30):
        got = _match(slots, hard, pool, rng)
        if got is None:
            break
        assignment = got
        held = [0] * n
        for p, c in zip(slots, got, strict=True):
            held[p] |= 1 << c
        if all((held[p] & f).bit_count() <= a for p, f, a in soft):
            break
    if assignment is None:  # cannot happen for a real observation; stay usable anyway
        assignment = list(pool[:len(slots)])
    hands = [0] * n
    hands[me] = own
    for p in range(n):
        if p != me:
            hands[p] = st.known[p]
    for p, c in zip(slots, assignment, strict=True):
        hands[p] |= 1 << c
    st.hands = hands
    used = rules.mask_of_list(assignment)
    stock = [c for c in pool if not used >> c & 1]
    rng.shuffle(stock)
    st.stock = stock
    st.draws_log = _draws_with_placeholders(obs, hands, st.known)
    return st


class HiddenDeals:
    """The hidden hands and stock of :func:`sample_world`, without building a state: the
    parts that depend only on the observation are worked out once, and :meth:`sample`
    draws from ``rng`` exactly as :func:`sample_world` does, so it returns the hands and
    the stock of the world :func:`sample_world` would return from the same RNG state."""

    def __init__(self, obs: dict[str, Any]) -> None:
        n = obs["players"]
        me = obs["seat"]
        deck = rules.deck_mask(n)
        trick = [c for _, c in obs["trick"]]
        captured = [rules.mask_of_list(m) for m in obs["captured"]]
        self.known = [rules.mask_of_list(m) for m in obs["known_cards"]]
        own = rules.mask_of_list(obs["hand"])
        visible = own | rules.mask_of_list(trick)
        for p in range(n):
            visible |= captured[p] | self.known[p]
        self.pool = list(bits(deck & ~visible))
        sizes = obs["hand_sizes"]
        self.slots: list[int] = []
        for p in range(n):
            if p != me:
                self.slots.extend([p] * (sizes[p] - self.known[p].bit_count()))
        if len(self.pool) != len(self.slots) + obs["stock_size"]:
            raise ValueError("observation is inconsistent: unseen cards do not fill the "
                             "hidden places")
        self.hard = [deck] * n
        self.soft: list[Constraint] = []
        for p, forbid, allowance in inferred_constraints(obs):
            if allowance == 0:
                self.hard[p] &= ~forbid
            else:
                self.soft.append((p, forbid, allowance))
        self.n = n
        self.me = me
        self.own = own

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """(hands, stock with the top card last) of one consistent world."""
        n = self.n
        rng.randrange(1 << 30)  # the seed sample_world gives its state
        slots, pool = self.slots, self.pool
        assignment: list[int] | None = None
        for _ in range(30):
            got = _match(slots, self.hard, pool, rng)
            if got is None:
                break
            assignment = got
            held = [0] * n
            for p, c in zip(slots, got, strict=True):
                held[p] |= 1 << c
            if all((held[p] & f).bit_count() <= a for p, f, a in self.soft):
                break
        if assignment is None:
            assignment = list(pool[:len(slots)])
        hands = list(self.known)
        hands[self.me] = self.own
        for p, c in zip(slots, assignment, strict=True):
            hands[p] |= 1 << c
        used = rules.mask_of_list(assignment)
        stock = [c for c in pool if not used >> c & 1]
        rng.shuffle(stock)
        return hands, stock


def _draws_with_placeholders(obs: dict[str, Any], hands: list[int],
                             known: list[int]) -> list[DrawRecord]:
    """Draw records; another winner's face-down card is filled with a plausible card."""
    n = obs["players"]
    me = obs["seat"]
    face_up_of = [0] * n
    for d in obs["draws"]:
        for q, c in d["face_up"]:
            face_up_of[q] |= 1 << c
    candidates: list[list[int]] = [[] for _ in range(n)]
    for t in obs["tricks"]:
        for p, c in t["cards"]:
            if not face_up_of[p] >> c & 1:
                candidates[p].append(c)
    for p, c in obs["trick"]:
        if not face_up_of[p] >> c & 1:
            candidates[p].append(c)
    for p in range(n):
        candidates[p].extend(bits(hands[p] & ~known[p]))
    out: list[DrawRecord] = []
    used: set[int] = set()
    for d in obs["draws"]:
        w = d["winner"]
        ups = tuple((q, c) for q, c in d["face_up"])
        if w == me:
            fd = d["face_down"]
        else:
            fd = next((c for c in reversed(candidates[w]) if c not in used), -1)
            used.add(fd)
        out.append((d["after_trick"], w, fd, ups))
    return out
