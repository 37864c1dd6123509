"""Text and JSON forms of actions: round trips, short forms, helpful errors."""

from __future__ import annotations

import json
import random

import pytest
from p2_helpers import deal, position, trick

from cardplaza.core.cards import PINOCHLE
from cardplaza.core.protocol import ActionParseError, IllegalAction
from cardplaza.games.pinochle2 import SPEC
from cardplaza.games.pinochle2.engine import (
    NO_MELD,
    STEP_MELD,
    Options,
    Pinochle2State,
    display_order,
)


def c(text: str) -> int:
    face, _, copy = text.partition("#")
    return PINOCHLE.parse_face(face) + 24 * (int(copy) - 1 if copy else 0)


@pytest.mark.parametrize("preset", sorted(SPEC.all_presets()))
def test_every_legal_action_round_trips(preset: str) -> None:
    """Text and JSON of every legal action parse back to it, over random seeded deals."""
    opts = SPEC.all_presets()[preset]
    melds = 0
    for seed in range(12):
        st = Pinochle2State(opts, seed)
        rng = random.Random(seed)
        while not st.is_terminal:
            legal = st.legal_actions()
            texts = [st.action_text(a) for a in legal]
            assert len(set(texts)) == len(texts) or all(isinstance(a, int) for a in legal)
            for a, text in zip(legal, texts, strict=True):
                parsed = st.parse_action(text)
                assert parsed in legal and st.action_text(parsed) == text, text
                data = json.loads(json.dumps(st.action_to_json(a)))
                assert st.action_from_json(data) == a
                melds += isinstance(a, tuple)
            st.apply(legal[rng.randrange(len(legal))])
    assert melds > 0


def test_short_forms_of_a_play() -> None:
    """'10h', 'play 10♥', 'P 10H', 'th' and a number name the same card."""
    st = deal("10♥ A♠ A♠ A♦ K♦ Q♦ J♦ 9♦ 9♣ 9♣ J♣ J♣",
              "A♥ A♣ 9♦ K♥ Q♥ J♥ 9♥ 9♥ K♣ Q♣ Q♣ 10♣", "J♠")
    ten = c("10♥")
    for text in ("10h", "play 10♥", "P 10H", "th", "10♡"):
        assert st.parse_action(text) == ten
    legal = display_order(st.legal_actions())
    assert legal[0] == c("A♠") and legal[2] == ten
    assert st.parse_action(str(legal.index(ten) + 1)) == ten
    assert st.action_text(ten) == "play 10♥"


def test_play_copy_marks() -> None:
    """When both copies are held and differ, the non-preferred one carries #copy."""
    st = deal("K♠ K♠ A♠ A♦ K♦ Q♦ J♦ 9♦ 9♣ 9♣ J♣ J♣",
              "A♥ A♣ 9♦ K♥ Q♥ J♥ 9♥ 9♥ K♣ Q♣ Q♣ 10♣", "J♠")
    assert st.action_text(c("K♠#1")) == st.action_text(c("K♠#2")) == "play K♠"
    st.melded[0] |= 1 << c("K♠#2")
    st.used[3] |= 1 << c("K♠#2")
    assert st.action_text(c("K♠#2")) == "play K♠"  # used copy preferred
    assert st.action_text(c("K♠#1")) == "play K♠#1"
    assert st.parse_action("ks") == c("K♠#2") and st.parse_action("K♠#1") == c("K♠#1")


@pytest.mark.parametrize(("text", "match"), [
    ("", "Type a card"), ("xyzzy", "not a card or meld"), ("play 11♠", "not a card"),
    ("7h", "not in the Pinochle deck"), ("play 9♠", "don't hold 9♠"), ("99", "no choice"),
    ("meld run", "only right after winning"), ("play 10h 9d", "Name one card"),
])
def test_parse_errors_are_helpful(text: str, match: str) -> None:
    st = deal("10♥ A♠ A♠ A♦ K♦ Q♦ J♦ 9♦ 9♣ 9♣ J♣ J♣",
              "A♥ A♣ 9♦ K♥ Q♥ J♥ 9♥ 9♥ K♣ Q♣ Q♣ 10♣", "J♠")
    with pytest.raises(ActionParseError, match=match):
        st.parse_action(text)


def test_meld_parse_forms() -> None:
    """Meld by name, by name and cards, by cards only; ambiguity is explained."""
    st = position(1, "K♥ Q♥ K♣ Q♣ K♠ Q♠ A♥ 10♥ J♥ J♦")
    royal = (1, (1 << c("K♥")) | (1 << c("Q♥")))
    assert st.parse_action("meld royal marriage K♥ Q♥") == royal
    assert st.parse_action("royal") == royal
    assert st.parse_action("kh qh") == royal
    assert st.parse_action("meld K♥ Q♥") == royal
    assert st.parse_action("meld marriage kc qc") == (2, (1 << c("K♣")) | (1 << c("Q♣")))
    with pytest.raises(ActionParseError, match="Several marriage melds"):
        st.parse_action("meld marriage")
    assert st.parse_action("no meld") == NO_MELD == st.parse_action("pass")
    with pytest.raises(ActionParseError, match="not a meld"):
        st.parse_action("meld A♥ J♦")
    with pytest.raises(ActionParseError, match="don't hold"):
        st.parse_action("meld marriage K♦ Q♦")


def test_illegal_meld_text_gives_reason_on_apply() -> None:
    """A meld typed from held cards but illegal parses, and apply explains why."""
    st = position(1, "K♥#2", melded="K♥#1 Q♥#1", used={0: "K♥#1 Q♥#1"})
    st.pending.append((9, 0))  # keep the meld step open for the test
    action = st.parse_action("meld royal marriage K♥ Q♥")
    with pytest.raises(IllegalAction, match="already used in a sequence meld"):
        st.apply(action)


def test_meld_step_rejects_plays_and_play_step_rejects_melds() -> None:
    st = deal("A♥ A♥ A♦ A♦ K♣ Q♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦",
              "9♣ 9♣ J♣ 10♣ 10♣ A♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦", "J♠")
    with pytest.raises(IllegalAction, match="no meld to decline"):
        st.apply(NO_MELD)
    trick(st, "A♥", "9♣")
    assert st.step == STEP_MELD
    with pytest.raises(IllegalAction, match="meld or decline"):
        st.apply(c("A♥#2"))
    reasons = st.illegal_card_reasons()
    assert set(reasons) == {x for x in range(48) if (st.hands[0] >> x) & 1}


@pytest.mark.parametrize("data", [None, 17.5, "nonsense", {"type": "play", "card": 48},
                                  {"type": "meld", "meld": "run", "cards": []},
                                  {"type": "meld", "meld": "bogus", "cards": [1]},
                                  {"type": "play"}, [1, 2]])
def test_bad_json_is_rejected(data: object) -> None:
    st = Pinochle2State(Options(), 1)
    with pytest.raises(ActionParseError):
        st.action_from_json(data)


def test_describe_adds_meld_points() -> None:
    st = position(1, "K♥ Q♥")
    assert st.describe(st.pending[0]) == "meld royal marriage K♥ Q♥ (+40)"
