"""A computer's reason in each language: catalog sentences filled and joined per language,
or the reason's own texts."""

from __future__ import annotations

from cardplaza.ai.advice import join, said
from cardplaza.texts.catalog import reason_texts, text


def test_catalog_sentences_are_filled_and_joined_per_language() -> None:
    reason = join(said("dd.reason.bid", amount=55, suit="♠", chance="70%", worlds=60),
                  said("dd.partner_shown", meld=20))
    out = reason_texts(reason)
    assert out["en"] == (text("dd.reason.bid", "en", amount=55, suit="♠", chance="70%",
                              worlds=60) + " " + text("dd.partner_shown", "en", meld=20))
    assert out["ja"] == (text("dd.reason.bid", "ja", amount=55, suit="♠", chance="70%",
                              worlds=60) + text("dd.partner_shown", "ja", meld=20))
    assert "55" in out["ja"] and "約20点" in out["ja"]


def test_a_literal_reason_passes_through() -> None:
    assert reason_texts({"en": "Pass.", "ja": "パス。"}) == {"en": "Pass.", "ja": "パス。"}
    assert reason_texts(join({"en": "A.", "ja": "あ。"}, {"en": "B.", "ja": "い。"})) == \
        {"en": "A. B.", "ja": "あ。い。"}
