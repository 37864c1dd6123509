"""Every worked example of the Piquet spec (section 16), one named test each."""

from __future__ import annotations

import pytest
from piquet_helpers import c, deal, declare, layout_state, m, pending_of, play, say, score_of

from cardplaza.core.protocol import IllegalAction
from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.state import EX_Y, EXCH, OVER, PLAY, PiquetState, partie_result

EX1_E = "A♠ K♠ Q♠ J♠ 10♠ K♥ 9♥ 7♥ K♦ 8♦ 9♣ 7♣"
EX1_Y = "9♠ 8♠ Q♥ J♥ 10♥ 8♥ Q♦ J♦ 10♦ K♣ Q♣ 10♣"
# The example gives only who leads and who wins each trick ("cards not needed"); these two
# hands, made of the same 24 cards, realise exactly that table of leaders and winners.
EX1_PLAY_E = "A♠ K♠ J♠ K♥ J♥ 10♥ K♦ Q♦ J♦ 8♦ Q♣ 7♣"
EX1_PLAY_Y = "Q♠ 10♠ 9♠ 8♠ Q♥ 9♥ 8♥ 7♥ 10♦ K♣ 10♣ 9♣"
EX1_TRICKS = ("J♦ 10♦ Q♦ 10♠ 8♦ 9♣ K♦ 9♥ 7♣ 10♣ 8♥ K♥ Q♣ K♣ 9♠ K♠ J♥ Q♥ 7♥ 10♥ "
              "J♠ Q♠ 8♠ A♠")


def _example1(opts: Options) -> PiquetState:
    st = deal(EX1_E, EX1_Y, opts)
    texts = declare(st)
    assert texts == ["Point of five", "Good", "Quint", "Good", "Trio of kings", "Good"]
    el, yo = st.elder, st.dealer
    assert st.dscore == [23 if s == el else 0 for s in (0, 1)]
    assert st.bonus is None
    st.hands[el], st.hands[yo] = m(EX1_PLAY_E), m(EX1_PLAY_Y)
    play(st, EX1_TRICKS)
    return st


def test_example_01_seed_elder_hand_46() -> None:
    """Example 1: point 5 + quint 15 + trio 3 + 12 play points + last trick + cards = 46."""
    st = _example1(Options())
    sheet = st.sheets[-1]
    el = sheet["dealer"] ^ 1
    assert sheet["raw"][el] == 46
    assert sheet["raw"][1 - el] == 8
    assert sheet["tricks"][el] == 8
    assert sheet["bonus"] is None  # Y captured trick 5 while E was at 28
    labels = [lab for s, _p, lab in sheet["events"] if s == el]
    assert labels.count("Lead") == 8 and labels.count("Capture") == 4
    assert "Cards" in labels and "Last trick" in labels


def test_example_02_rubicon() -> None:
    """Example 2: A 132, B 87 → A scores 132 + 87 + 100 = 319."""
    assert partie_result(132, 87) == (0, 319.0, True)


def test_example_03_loser_crossed_rubicon() -> None:
    """Example 3: A 145, B 118 → (145 − 118) + 100 = 127."""
    assert partie_result(145, 118) == (0, 127.0, False)
    assert partie_result(118, 145) == (1, 127.0, False)


EX4_E = "A♠ K♠ Q♠ J♠ 10♠ 9♠ 10♥ 9♥ 8♥ 7♥ 10♦ 7♣"
EX4_Y = "8♠ 7♠ A♥ K♥ A♦ K♦ 9♦ 8♦ Q♣ J♣ 10♣ 9♣"


def test_example_04_pique_29_to_60() -> None:
    """Example 4: E 29 after declarations; his first lead makes 30 → pique → 60."""
    st = deal(EX4_E, EX4_Y)
    declare(st)
    el = st.elder
    assert st.dscore[el] == 29 and st.dscore[1 - el] == 0 and st.bonus is None
    assert score_of(st, el, "Sequences") == 20 and score_of(st, el, "Sets") == 3
    play(st, "9♥")
    assert st.dscore[el] == 60 and st.bonus == "pique"
    play(st, "A♥")  # Y wins the trick: too late
    assert st.dscore[el] == 60 and st.dscore[1 - el] == 1


def test_example_05_repique_by_elder() -> None:
    """Example 5: point 5 + quint 15 + quatorze of aces 14 = 34 → repique → 94."""
    st = deal("A♠ K♠ Q♠ J♠ 10♠ A♥ 9♥ A♦ 9♦ A♣ 9♣ 8♣",
              "9♠ 8♠ 7♠ K♥ Q♥ J♥ K♦ Q♦ 10♦ K♣ Q♣ J♣")
    declare(st)
    el = st.elder
    assert st.dscore[el] == 94 and st.bonus == "repique"
    assert st.phase == PLAY and not st.tricks


def test_example_06_younger_point_blocks_repique() -> None:
    """Example 6: Y's point (S2) comes before E passes 30 at S4 → no repique, no pique."""
    st = deal("A♠ K♠ Q♠ J♠ 10♠ A♥ 9♥ A♦ A♣ 9♣ 8♣ 7♣",
              "K♥ Q♥ J♥ 10♥ 8♥ 7♥ 9♠ 8♠ 7♠ K♦ Q♦ J♦")
    texts = declare(st)
    assert texts[:2] == ["Point of five", "Not good"]
    el, yo = st.elder, st.dealer
    assert st.dscore[el] == 32 and st.dscore[yo] == 6
    assert score_of(st, el, "Sequences") == 18 and score_of(st, el, "Sets") == 14
    assert pending_of(st, yo, "Point") == 6
    assert st.bonus is None
    play(st, "A♠")
    assert st.bonus is None and st.dscore[el] == 33


def test_example_07_younger_repique() -> None:
    """Example 7: Y point 3 + sets 31 = 34 at S4 → repique 94; E's lead is too late."""
    st = deal("K♠ Q♠ 9♠ K♥ Q♥ 9♥ K♦ Q♦ 9♦ K♣ Q♣ 9♣",
              "A♠ J♠ 10♠ A♥ J♥ 10♥ A♦ J♦ 10♦ A♣ 10♣ 8♣")
    texts = declare(st)
    assert texts == ["Point of three", "Making?", "Making 29", "Not good",
                     "No sequence", "None", "Quatorze of kings", "Not good"]
    el, yo = st.elder, st.dealer
    assert st.dscore[yo] == 94 and st.bonus == "repique"
    assert pending_of(st, yo, "Sets") == 31
    # before Elder's first lead, Elder does not yet see Younger's scores
    obs = st.observation(el)
    assert obs["deal_score"] == [0, 0] and obs["bonus"] is None
    play(st, "K♠")
    obs = st.observation(el)
    assert obs["deal_score"][yo] == 94 and obs["deal_score"][el] == 1
    assert obs["bonus"] == "repique"


E8 = "A♥ K♥ Q♥ 9♥ 8♥ A♠ 9♠ 7♠ A♦ 9♦ 7♦ 7♣"


def test_example_08_point_tie_broken_by_pip() -> None:
    """Example 8: 48 against 49 → Y scores 5 (the count); 48 against 48 → Equal."""
    st = deal(E8, "K♣ Q♣ J♣ 10♣ 9♣ K♠ 8♠ K♦ 8♦ J♥ 10♥ 7♥")
    texts = declare(st)
    assert texts[:4] == ["Point of five", "Making?", "Making 48", "Not good"]
    assert pending_of(st, st.dealer, "Point") == 5
    st2 = deal(E8, "A♣ K♣ Q♣ 9♣ 8♣ K♠ 8♠ K♦ 8♦ J♥ 10♥ 7♥")
    texts = declare(st2)
    assert texts[:4] == ["Point of five", "Making?", "Making 48", "Equal"]
    assert all(lab != "Point" for _s, _p, lab in st2.events + st2.pending)
    assert not any(sh[1] == 0 for sh in st2.shown + st2.pending_shown)


def test_example_09_sequence_comparisons() -> None:
    """Example 9: (a) same length, higher top wins and all E's sequences count (7);
    (b) longer wins (Y 4); (c) equal quints → nobody, E's tierce major lost too."""
    st = deal("Q♦ J♦ 10♦ 9♦ 9♣ 8♣ 7♣ A♠ 10♠ 8♠ A♥ 7♥",
              "J♥ 10♥ 9♥ 8♥ K♠ 9♠ A♦ K♦ 8♦ A♣ K♣ J♣")
    declare(st)
    assert score_of(st, st.elder, "Sequences") == 7
    assert pending_of(st, st.dealer, "Sequences") == 0
    st = deal("A♥ K♥ Q♥ A♠ J♠ A♦ 10♦ 8♦ A♣ 10♣ 8♣ 7♣",
              "10♠ 9♠ 8♠ 7♠ J♥ 9♥ 7♥ K♦ Q♦ 9♦ K♣ Q♣")
    declare(st)
    assert pending_of(st, st.dealer, "Sequences") == 4
    assert score_of(st, st.elder, "Sequences") == 0
    st = deal("K♠ Q♠ J♠ 10♠ 9♠ A♥ K♥ Q♥ A♦ 7♦ A♣ 7♣",
              "K♦ Q♦ J♦ 10♦ 9♦ A♠ 8♠ J♥ 9♥ 7♥ K♣ Q♣")
    texts = declare(st)
    assert texts[4:8] == ["Quint", "To what?", "To the king", "Equal"]
    assert all(lab != "Sequences" for _s, _p, lab in st.events + st.pending)


def test_example_10_set_comparisons() -> None:
    """Example 10: (a) a quatorze beats any trio (Y 14); (b) the best set wins, E 3."""
    st = deal("A♠ 10♠ 8♠ A♥ 10♥ 8♥ A♦ 10♦ 7♦ 9♣ 8♣ 7♣",
              "J♠ J♥ J♦ J♣ K♠ Q♠ 9♠ Q♥ 9♥ 7♥ 9♦ K♣")
    texts = declare(st)
    assert texts[-2:] == ["Trio of aces", "Not good"]
    assert pending_of(st, st.dealer, "Sets") == 14
    assert score_of(st, st.elder, "Sets") == 0
    st = deal("K♠ 9♠ 8♠ 7♠ K♥ 9♥ 8♥ 7♥ K♦ 9♦ 8♦ 7♦",
              "Q♠ 10♠ A♠ J♠ Q♥ 10♥ A♥ J♥ Q♦ 10♣ 9♣ 8♣")
    texts = declare(st)
    assert texts[-2:] == ["Trio of kings", "Good"]
    assert score_of(st, st.elder, "Sets") == 3


def test_example_11_exchange_legality_and_view() -> None:
    """Example 11: e = 3 shows E T4, T5; Y may take 1–5 (0–5 with O1); Y takes T4, T5."""
    for opts, lo in ((Options(), 1), (Options(younger_may_exchange_zero="on"), 0)):
        st = PiquetState(opts, 11)
        el, yo = st.elder, st.dealer
        hand = st.hands[el]
        cards = [x for x in range(32) if hand >> x & 1]
        for bad in (0, 6):
            with pytest.raises(IllegalAction, match="1 to 5"):
                st.apply((EXCH, sum(1 << x for x in cards[:bad])))
        st.apply((EXCH, sum(1 << x for x in cards[:3])))
        assert st.phase == EX_Y
        obs_e = st.observation(el)
        assert [d["card"] for d in obs_e["talon_seen"]] == st.talon[3:5]
        assert st.observation(yo)["talon_seen"] == []
        sizes = {a[1].bit_count() for a in st.legal_actions()}  # type: ignore[index]
        assert sizes == set(range(lo, 6))
        ycards = [x for x in range(32) if st.hands[yo] >> x & 1]
        with pytest.raises(IllegalAction, match="at most 5"):
            st.apply((EXCH, sum(1 << x for x in ycards[:6])))
        if lo == 1:
            with pytest.raises(IllegalAction, match="at least 1"):
                st.apply((EXCH, 0))
        st.apply((EXCH, sum(1 << x for x in ycards[:2])))
        assert st.drawn[yo] == st.talon[3:5]
        assert st.untaken_cards() == st.talon[5:]
        for seat in (0, 1):
            obs = st.observation(seat)
            assert obs["untaken"] == []
            visible = set(obs["hand"]) | {d["card"] for d in obs["talon_seen"]}
            assert not visible & set(st.talon[5:])


def test_example_12_capot_does_not_count_toward_pique() -> None:
    """Example 12: E 13 + 12 leads + last trick = 26 < 30 → no pique; capot → 66."""
    st = deal("A♠ K♠ Q♠ J♠ 8♠ A♥ K♥ J♥ 10♥ 8♥ 7♥ A♦",
              "10♠ 9♠ Q♥ 9♥ K♦ Q♦ 10♦ 9♦ A♣ K♣ J♣ 9♣")
    declare(st)
    el = st.elder
    assert st.dscore[el] == 13
    for lead in ["A♠", "K♠", "A♥", "K♥", "A♦", "Q♠", "J♠", "8♠", "J♥", "10♥", "8♥", "7♥"]:
        st.apply(c(lead))
        st.apply(st.legal_actions()[0])
    sheet = st.sheets[-1]
    assert sheet["tricks"][el] == 12 and sheet["bonus"] is None
    assert sheet["raw"][el] == 66 and sheet["raw"][1 - el] == 0
    assert [lab for _s, _p, lab in sheet["events"]][-2:] == ["Last trick", "Capot"]


def test_example_13a_carte_blanche_and_repique() -> None:
    """Example 13 (a): E carte blanche 10 + point 5 + quint 15 = 30 → repique → 90."""
    de = m("A♠ 10♠ A♥ 9♥ 8♥ 7♥ 10♦ 9♦ 8♦ 9♣ 8♣ 7♣")
    dy = m("9♠ 8♠ 7♠ K♥ Q♥ J♥ 10♥ A♦ K♦ A♣ J♣ 10♣")
    talon = [c(x) for x in ["K♠", "Q♠", "J♠", "7♦", "Q♦", "J♦", "K♣", "Q♣"]]
    st = layout_state(Options(), de, dy, talon)
    el, yo = st.elder, st.dealer
    assert st.cb[el] and st.dscore[el] == 10
    assert st.observation(yo)["revealed_dealt"] == {str(el): sorted(
        x for x in range(32) if de >> x & 1)}
    st.apply((EXCH, m("8♥ 9♦ 8♣")))
    st.apply((EXCH, m("K♦")))
    declare(st)
    assert st.hands[el] == m("A♠ K♠ Q♠ J♠ 10♠ A♥ 9♥ 7♥ 10♦ 8♦ 9♣ 7♣")
    assert st.dscore[el] == 90 and st.bonus == "repique" and st.dscore[yo] == 0


def test_example_13b_younger_carte_blanche_blocks_repique() -> None:
    """Example 13 (b): Y's carte blanche (S1) → E's 36 in declarations is no repique."""
    de = m("A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ A♥ K♥ A♦ Q♦ A♣")
    dy = m("10♥ 9♥ 8♥ 7♥ 10♦ 9♦ 8♦ 7♦ 10♣ 9♣ 8♣ 7♣")
    rest = [x for x in range(32) if not (de | dy) >> x & 1]
    rest.remove(c("J♣"))
    rest.remove(c("7♠"))
    st = layout_state(Options(), de, dy, [c("J♣"), c("7♠"), *rest])
    el, yo = st.elder, st.dealer
    assert st.cb[yo] and st.dscore[yo] == 10
    obs_e = st.observation(el)
    assert obs_e["carte_blanche"][yo] and str(yo) not in obs_e["revealed_dealt"]
    st.apply((EXCH, m("8♠")))
    assert st.observation(el)["revealed_dealt"][str(yo)] == sorted(
        x for x in range(32) if dy >> x & 1)
    st.apply((EXCH, m("7♥")))
    declare(st)
    assert st.dscore[el] == 36 and st.dscore[yo] == 10 and st.bonus is None


def test_example_14_lead_points_ten_or_higher() -> None:
    """Example 14: with O7 a ♥9 lead scores nothing and Y's capture stops the pique;
    leading ♠A still makes 30 → pique."""
    st = deal(EX4_E, EX4_Y, Options(lead_points_ten_or_higher="on"))
    declare(st)
    el = st.elder
    play(st, "9♥")
    assert st.dscore[el] == 29
    play(st, "K♥")
    assert st.dscore[1 - el] == 1
    play(st, "8♠ A♠ 10♥ A♥")
    assert st.bonus is None
    st = deal(EX4_E, EX4_Y, Options(lead_points_ten_or_higher="on"))
    declare(st)
    play(st, "A♠")
    assert st.dscore[el] == 60 and st.bonus == "pique"


def _finish_deal(st: PiquetState, raw: tuple[int, int]) -> None:
    """End the current deal with these raw scores (6 tricks each, no cards bonus)."""
    st.events = [(0, raw[0], "Test"), (1, raw[1], "Test")]
    st.pending = []
    st.dscore = list(raw)
    st.won = [6, 6]
    st._end_deal()


def test_example_15_four_deal_partie() -> None:
    """Example 15: deals 1 and 4 doubled: A 150, B 124 → A scores 126."""
    st = PiquetState(Options(four_deals=True), 3)
    for raw in ((20, 25), (35, 10), (15, 40), (30, 12)):
        _finish_deal(st, raw)
    assert [sh["counted"] for sh in st.sheets] == [[40, 50], [35, 10], [15, 40], [60, 24]]
    assert st.totals == [150, 124]
    assert st.phase == OVER and st.returns() == (126.0, -126.0)
    assert st.totals == [sum(sh["counted"][k] for sh in st.sheets) for k in (0, 1)]


def test_example_16_tie_after_six_deals() -> None:
    """Example 16: 150–150 → deals 7 and 8; 179–187 → B scores 108; tie again → draw."""
    for last, expect in (((9, 25), (-108.0, 108.0)), ((9, 17), (0.0, 0.0))):
        st = PiquetState(Options(), 5)
        for raw in ((30, 20), (20, 30), (25, 25), (25, 25), (25, 25), (25, 25)):
            _finish_deal(st, raw)
        assert st.totals == [150, 150] and st.scheduled == 8 and st.phase != OVER
        assert st.deal_number == 7
        _finish_deal(st, (20, 12))
        _finish_deal(st, last)
        assert st.phase == OVER and st.returns() == expect
        assert st.totals == [sum(sh["counted"][k] for sh in st.sheets) for k in (0, 1)]


def test_example_17a_au_cent_double_game() -> None:
    """Example 17 (a): A 92 (Elder) wins point 5 → 97, a quart → 101 → double game."""
    st = deal("A♠ K♠ Q♠ J♠ 9♠ 10♥ 8♥ 7♥ 10♦ 8♦ 10♣ 8♣",
              "A♥ K♥ J♥ 9♥ A♦ K♦ J♦ 9♦ A♣ K♣ J♣ 9♣",
              Options(au_cent=True), totals=(92, 40))
    el = st.elder
    declare(st)
    assert st.phase == OVER
    assert st.totals[el] == 101
    assert st.result is not None and st.result[el] == 2.0
    assert st.result_info is not None and st.result_info["double"]


def test_example_17b_au_cent_single_game_younger() -> None:
    """Example 17 (b): B (Younger, 96) wins the point 6 → 102 and wins at once, single."""
    st = deal("A♠ K♠ Q♠ J♠ 10♠ A♥ K♥ Q♥ A♣ K♣ Q♣ A♦",
              "K♦ Q♦ J♦ 10♦ 9♦ 8♦ 9♠ 8♠ 7♠ J♥ 10♥ 9♥",
              Options(au_cent=True), totals=(88, 96))
    el, yo = st.elder, st.dealer
    say(st, "")
    say(st, "")
    assert st.phase == OVER
    assert st.totals[yo] == 102 and st.totals[el] == 88
    assert st.result is not None and st.result[yo] == 1.0
    assert [d[4] for d in st.dialogue] == ["Point of five", "Not good"]


def test_example_18_carte_rouge() -> None:
    """Example 18: 37 → repique 97 → carte rouge 20 → 117."""
    st = deal("A♠ K♠ Q♠ J♠ 10♠ 9♠ A♥ K♥ Q♥ A♦ K♦ Q♦",
              "8♠ 7♠ J♥ 10♥ 9♥ J♦ 10♦ 9♦ A♣ K♣ Q♣ 9♣", Options(carte_rouge=True))
    declare(st)
    el = st.elder
    assert [lab for s, _p, lab in st.events if s == el] == [
        "Point", "Sequences", "Sets", "Repique", "Carte rouge"]
    assert st.dscore[el] == 117
    st = deal("A♠ K♠ Q♠ J♠ 10♠ 9♠ A♥ K♥ Q♥ A♦ K♦ Q♦",
              "8♠ 7♠ J♥ 10♥ 9♥ J♦ 10♦ 9♦ A♣ K♣ Q♣ 9♣")
    declare(st)
    assert st.dscore[st.elder] == 97


def test_example_19a_sinking_a_set() -> None:
    """Example 19 (a): E passes his winning trio of aces; Y's trio of queens scores 3."""
    st = deal("A♠ 9♠ 7♠ A♥ 9♥ 7♥ A♦ 10♦ 8♦ 10♣ 8♣ 7♣",
              "K♠ Q♠ 8♠ K♥ Q♥ 8♥ Q♦ J♦ 9♦ A♣ J♣ 9♣", Options(sinking=True))
    el, yo = st.elder, st.dealer
    # the class winner always confirms what he scores (Enter = his only choice here)
    for text in ("call", "making?", "making", "not good", "", "pass", "pass"):
        say(st, text)
    assert st.cls == 2
    say(st, "pass")
    say(st, "call")
    say(st, "add none")
    assert [d[4] for d in st.dialogue if d[2] == 1][-2:] == ["Pass", "Trio of queens"]
    assert pending_of(st, yo, "Sets") == 3
    assert score_of(st, el, "Sets") == 0
    play(st, "A♠")
    obs_y = st.observation(yo)
    aces = {c("A♥"), c("A♦")}
    assert not any(set(sh["cards"]) & aces for sh in obs_y["shown"])
    assert any(sh["label"] == "Trio of queens" for sh in obs_y["shown"])


def test_example_19b_sinking_concede_point() -> None:
    """Example 19 (b): E calls point of four; Y with five replies Good → E scores 4."""
    st = deal("A♠ K♠ 9♠ 7♠ A♥ 9♥ 7♥ A♦ 9♦ 7♦ 9♣ 8♣",
              "A♣ K♣ Q♣ J♣ 10♣ Q♠ J♠ 10♠ K♥ Q♥ K♦ Q♦", Options(sinking=True))
    say(st, "call")
    assert [st.action_text(a) for a in st.legal_actions()] == ["Good", "Not good"]
    say(st, "good")
    say(st, "")
    assert score_of(st, st.elder, "Point") == 4
    assert [d[4] for d in st.dialogue] == ["Point of four", "Good", "point ♠"]


def test_example_20_last_trick_ten() -> None:
    """Example 20: Example 1 with O5 → 5 + 15 + 3 + 12 + 10 + 10 = 55."""
    st = _example1(Options(last_trick_ten=True))
    sheet = st.sheets[-1]
    assert sheet["raw"][sheet["dealer"] ^ 1] == 55


def test_example_21_show_untaken_talon() -> None:
    """Example 21: E takes 5, Y 2 → T8 untaken; seen by both only with O2, at E's lead."""
    for opts in (Options(), Options(show_untaken=True)):
        st = PiquetState(opts, 21)
        el, yo = st.elder, st.dealer
        hand = [x for x in range(32) if st.hands[el] >> x & 1]
        st.apply((EXCH, sum(1 << x for x in hand[:5])))
        assert st.observation(el)["talon_seen"] == []
        yh = [x for x in range(32) if st.hands[yo] >> x & 1]
        st.apply((EXCH, sum(1 << x for x in yh[:2])))
        t8 = st.talon[7]
        while st.phase != PLAY:
            st.apply(st.legal_actions()[0])
        for seat in (0, 1):
            assert st.observation(seat)["untaken"] == []
        st.apply(st.legal_actions()[0])
        for seat in (0, 1):
            assert st.observation(seat)["untaken"] == ([t8] if opts.show_untaken else [])


def test_example_22_younger_never_piques() -> None:
    """Example 22: Y 29 in declarations, E 0; E leads (1); Y captures (30) → no pique."""
    st = deal("Q♥ J♥ 9♥ 8♥ Q♦ J♦ 9♦ 8♦ A♣ K♣ Q♣ J♣",
              "A♠ K♠ Q♠ J♠ 10♠ A♥ K♥ 10♥ A♦ K♦ 10♦ 7♣")
    declare(st)
    el, yo = st.elder, st.dealer
    assert st.dscore[yo] == 29 and st.dscore[el] == 0 and st.bonus is None
    play(st, "8♥ 10♥")
    assert st.dscore == [1 if s == el else 30 for s in (0, 1)]
    assert st.bonus is None


def test_four_deal_partie_tie_plays_two_single_deals() -> None:
    """P-30: equal four-deal totals → two more deals at single value, then 13.2."""
    st = PiquetState(Options(four_deals=True), 8)
    for raw in ((10, 10), (30, 10), (10, 30), (15, 15)):
        _finish_deal(st, raw)
    assert st.totals == [90, 90] and st.scheduled == 6 and st.phase != OVER
    _finish_deal(st, (30, 10))
    _finish_deal(st, (10, 10))
    assert [sh["multiplier"] for sh in st.sheets] == [2, 1, 1, 2, 1, 1]
    assert st.totals == [130, 110] and st.returns() == (120.0, -120.0)
