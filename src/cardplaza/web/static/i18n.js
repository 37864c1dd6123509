// Japanese and English texts. The language comes from localStorage, else navigator.language.

const DICT = {
  en: {
    "app.title": "Card Plaza",
    "app.tagline": "Classic trick-taking card games",
    "nav.lobby": "Games",
    "nav.scores": "High scores",
    "nav.rules": "Rules",
    "nav.lang": "日本語",
    "nav.lang.aria": "Switch language to Japanese",
    "lobby.choose": "Choose a game",
    "lobby.players": "{n} players",
    "lobby.options": "Options",
    "lobby.more": "More options",
    "lobby.start": "Start game",
    "lobby.name": "Your name",
    "lobby.level": "Computer strength",
    "lobby.resume": "Continue a game",
    "lobby.resume.btn": "Continue",
    "lobby.forget": "Forget",
    "lobby.rules": "Rules of {game}",
    "lobby.error": "Could not start the game: {msg}",
    "lobby.mode": "Mode",
    "lobby.mode.streak": "Winning streak (level rises with each win)",
    "lobby.mode.practice": "Practice at a fixed level",
    "lobby.streak.info": "Streak {s} · saved score {saved} · best {best} · next level {lv}",
    "lobby.streak.warn": "Starting a new game ends your current streak of {s}.",
    "lobby.loading": "Loading…",
    "table.you": "You",
    "table.computer": "Computer {n}",
    "table.computer1": "Computer",
    "table.turn.you": "Your turn",
    "table.turn.other": "{name} is thinking…",
    "table.trump": "Trump",
    "table.scores": "Scores",
    "table.trick": "Trick",
    "table.trick.n": "Trick {n}",
    "table.last": "Last trick",
    "table.hand": "Your hand",
    "table.cards": "{n} cards",
    "table.stock": "Stock",
    "table.actions": "Actions",
    "table.leave": "Leave table",
    "table.info": "Table details",
    "table.connecting": "Connecting…",
    "table.reconnecting": "Connection lost — reconnecting…",
    "table.notfound": "This table no longer exists.",
    "table.illegal": "Not playable",
    "table.played": "{name} played {card}",
    "table.waiting": "Waiting…",
    "table.melds": "Melds",
    "table.meldarea": "Meld area",
    "table.history": "Previous tricks",
    "table.hint.play": "Choose a highlighted card",
    "table.step": "Move {n}",
    "table.select": "Select cards ({n} selected)",
    "table.select.title": "Tap cards to select them, then confirm",
    "end.title": "Game over",
    "end.win": "You win!",
    "end.loss": "You lose.",
    "end.draw": "Draw.",
    "end.winner": "Winner: {name}",
    "end.lobby": "Back to the games",
    "end.again": "Play again",
    "end.next": "Next game (streak continues)",
    "end.new": "New game",
    "end.close": "Show the table",
    "end.result": "Result",
    "end.points": "Points",
    "scores.title": "High scores — Two-hand Pinochle",
    "scores.none": "No saved scores yet. Win a streak game of Two-hand Pinochle!",
    "scores.player": "Player",
    "scores.best": "Best saved score",
    "scores.streak": "Current streak",
    "rules.back": "Back",
    "card.back": "face-down card",
    "card.aria": "{card}",
    "card.aria.illegal": "{card}, not playable: {reason}",
    "suit.S": "spades", "suit.H": "hearts", "suit.D": "diamonds", "suit.C": "clubs",
    "rank.A": "ace", "rank.K": "king", "rank.Q": "queen", "rank.J": "jack", "rank.10": "ten",
    "rank.9": "nine", "rank.8": "eight", "rank.7": "seven", "rank.6": "six", "rank.5": "five",
    "rank.4": "four", "rank.3": "three", "rank.2": "two",
    "joker": "Joker",
    "yes": "on", "no": "off",
    "level.random": "Random",
    "level.n": "Level {n}",
    "level.pinochle2.1": "Level 1 (random)", "level.pinochle2.2": "Level 2 (simple tips)",
    "level.pinochle2.3": "Level 3 (counting)", "level.pinochle2.4": "Level 4 (simulation)",
    "level.pinochle2.5": "Level 5 (expert: deeper simulation, exact endgame)",
    "level.expert": "Expert (beyond the original levels)",
    "level.piquet.1": "Level 1 (plays at random)", "level.piquet.2": "Level 2 (sensible)",
    "level.piquet.3": "Level 3 (search)", "level.piquet.4": "Level 4 (deeper search)",
    "level.efudatori.1": "Level 1 (random)", "level.efudatori.2": "Level 2 (heuristic)",
    "level.efudatori.3": "Level 3 (search)", "level.efudatori.4": "Level 4 (deeper search)",
    "level.weak": "Weak", "level.normal": "Normal", "level.strong": "Strong",
    "err.generic": "Error: {msg}",
    // two-hand pinochle
    "p2.turnup": "Turn-up",
    "p2.stockcount": "{n} cards in the stock",
    "p2.playoff": "Playoff — no more drawing",
    "p2.meldq": "You won the trick: make a meld?",
    "p2.meldpts": "Meld points",
    "p2.known": "Known to be held",
    "p2.counters": "Counters",
    "p2.lasttrick": "Last trick (10)",
    "p2.total": "Total",
    "p2.level": "Computer level {n}",
    "p2.streak": "Streak {s}",
    "p2.nine": "10 for the turned-up 9",
    "p4.us": "Us", "p4.them": "Them", "p4.pass": "Pass", "p4.bidding": "Bidding",
    "p4.helper": "Your meld if trump is", "p4.highbid": "High bid", "p4.minbid": "minimum",
    "p4.amount": "Amount", "p4.bid": "Bid", "p4.choosetrump": "Name trump", "p4.meld": "meld",
    "p4.throwin": "thrown in", "p4.made": "made", "p4.set": "went set", "p4.lasthand": "Last hand",
    "p4.trickpts": "Trick points", "p4.change": "Change", "p4.contract": "Contract",
    "p4.sheet": "Score sheet", "p4.stuck": "Everyone passed: as dealer you take the bid at {bid}.",
    "p4.handno": "Hand {n}", "p4.phase.bidding": "bidding", "p4.phase.trump": "naming trump",
    "p4.phase.passing": "passing", "p4.phase.discard": "discarding", "p4.phase.play": "playing",
    "p4.phase.over": "game over", "p4.passed": "passed", "p4.partner": "partner", "p4.dealer": "dealer",
    "p4.tricks": "{n} tricks", "p4.passing": "Passing {n} cards", "p4.giver": "{name} is choosing cards to pass",
    "p4.selected": "Chosen so far:", "p4.received": "Received:", "p4.give": "Choose a card to pass",
    "pq.deal": "Deal {n}", "pq.elder": "Elder", "pq.younger": "Younger", "pq.totals": "Partie",
    "pq.thisdeal": "This deal", "pq.talon": "Talon ({n})", "pq.seen": "Untaken cards you saw:",
    "pq.untaken": "Untaken cards:", "pq.mydiscards": "Your discards:", "pq.drawn": "You drew:",
    "pq.exchanged": "Exchanged — Elder {e}, Younger {y}", "pq.declarations": "Declarations",
    "pq.hidden": "(chosen, not yet shown)", "pq.tricks": "Tricks", "pq.events": "Points this deal",
    "pq.exchange.elder": "Exchange: select 1–5 cards to discard, then confirm",
    "pq.exchange.younger": "Exchange: select the cards to discard, then confirm",
    "pq.yoursay": "Your declaration", "pq.dealcol": "Deal", "pq.sheets": "Score sheet",
    "pq.cb": "Carte blanche: the cards dealt to {who}",
    "pq.result": "{name} wins the partie: {value} points.", "pq.rubicon": "Rubiconed (the loser stayed under 100).",
    "ef.stock": "Stock: {n}", "ef.points": "Points", "ef.sets": "{n} K-Q-J set(s)", "ef.known": "Known cards:",
    "ef.captured": "Captured:", "ef.setscol": "Sets",
    "p4.widow": "Widow", "p4.discards": "Your discards", "p4.discard": "Choose a card to discard",

  },
  ja: {
    "app.title": "カードプラザ",
    "app.tagline": "トリックテイキングの定番トランプゲーム",
    "nav.lobby": "ゲーム",
    "nav.scores": "ハイスコア",
    "nav.rules": "ルール",
    "nav.lang": "English",
    "nav.lang.aria": "英語に切り替える",
    "lobby.choose": "ゲームを選ぶ",
    "lobby.players": "{n}人",
    "lobby.options": "設定",
    "lobby.more": "その他の設定",
    "lobby.start": "ゲーム開始",
    "lobby.name": "プレイヤー名",
    "lobby.level": "コンピュータの強さ",
    "lobby.resume": "続きから遊ぶ",
    "lobby.resume.btn": "続ける",
    "lobby.forget": "削除",
    "lobby.rules": "{game}のルール",
    "lobby.error": "ゲームを開始できません：{msg}",
    "lobby.mode": "モード",
    "lobby.mode.streak": "連勝モード（勝つたびにレベルが上がる）",
    "lobby.mode.practice": "練習（レベル固定）",
    "lobby.streak.info": "連勝 {s} ・ セーブスコア {saved} ・ ベスト {best} ・ 次のレベル {lv}",
    "lobby.streak.warn": "新しく始めると、いまの{s}連勝は終わります。",
    "lobby.loading": "読み込み中…",
    "table.you": "あなた",
    "table.computer": "コンピュータ{n}",
    "table.computer1": "コンピュータ",
    "table.turn.you": "あなたの番です",
    "table.turn.other": "{name}が考えています…",
    "table.trump": "切り札",
    "table.scores": "得点",
    "table.trick": "トリック",
    "table.trick.n": "第{n}トリック",
    "table.last": "直前のトリック",
    "table.hand": "手札",
    "table.cards": "{n}枚",
    "table.stock": "山札",
    "table.actions": "操作",
    "table.leave": "テーブルを離れる",
    "table.info": "テーブルの詳細",
    "table.connecting": "接続中…",
    "table.reconnecting": "接続が切れました。再接続しています…",
    "table.notfound": "このテーブルはもうありません。",
    "table.illegal": "出せません",
    "table.played": "{name}：{card}",
    "table.waiting": "待っています…",
    "table.melds": "メルド",
    "table.meldarea": "メルドしたカード",
    "table.history": "これまでのトリック",
    "table.hint.play": "明るいカードから選んでください",
    "table.step": "{n}手目",
    "table.select": "カードを選んでください（{n}枚選択中）",
    "table.select.title": "カードをタップして選び、確定してください",
    "end.title": "ゲーム終了",
    "end.win": "あなたの勝ちです！",
    "end.loss": "あなたの負けです。",
    "end.draw": "引き分けです。",
    "end.winner": "勝者：{name}",
    "end.lobby": "ゲーム選択へ",
    "end.again": "もう一度",
    "end.next": "次のゲーム（連勝を続ける）",
    "end.new": "新しく始める",
    "end.close": "テーブルを見る",
    "end.result": "結果",
    "end.points": "得点",
    "scores.title": "ハイスコア ― 2人ピノクル",
    "scores.none": "まだスコアがありません。2人ピノクルの連勝モードで勝ちましょう！",
    "scores.player": "プレイヤー",
    "scores.best": "ベストのセーブスコア",
    "scores.streak": "現在の連勝",
    "rules.back": "戻る",
    "card.back": "裏向きのカード",
    "card.aria": "{card}",
    "card.aria.illegal": "{card}（出せません：{reason}）",
    "suit.S": "スペード", "suit.H": "ハート", "suit.D": "ダイヤ", "suit.C": "クラブ",
    "rank.A": "A", "rank.K": "K", "rank.Q": "Q", "rank.J": "J", "rank.10": "10",
    "rank.9": "9", "rank.8": "8", "rank.7": "7", "rank.6": "6", "rank.5": "5",
    "rank.4": "4", "rank.3": "3", "rank.2": "2",
    "joker": "ジョーカー",
    "yes": "あり", "no": "なし",
    "level.random": "ランダム",
    "level.n": "レベル{n}",
    "level.pinochle2.1": "レベル1（ランダム）", "level.pinochle2.2": "レベル2（簡単なコツ）",
    "level.pinochle2.3": "レベル3（カードを数える）", "level.pinochle2.4": "レベル4（シミュレーション）",
    "level.pinochle2.5": "レベル5（達人：深い読みと終盤の完全読み）",
    "level.expert": "達人（元のレベルより強い）",
    "level.piquet.1": "レベル1（でたらめに出す）", "level.piquet.2": "レベル2（堅実）",
    "level.piquet.3": "レベル3（読み）", "level.piquet.4": "レベル4（深い読み）",
    "level.efudatori.1": "レベル1（ランダム）", "level.efudatori.2": "レベル2（コツ）",
    "level.efudatori.3": "レベル3（読み）", "level.efudatori.4": "レベル4（深い読み）",
    "level.weak": "弱い", "level.normal": "普通", "level.strong": "強い",
    "err.generic": "エラー：{msg}",
    "p2.turnup": "切り札の表札",
    "p2.stockcount": "山札 残り{n}枚",
    "p2.playoff": "山札がなくなりました（後半戦）",
    "p2.meldq": "トリックに勝ちました。メルドしますか？",
    "p2.meldpts": "メルド点",
    "p2.known": "持っていることが分かっているカード",
    "p2.counters": "カード点",
    "p2.lasttrick": "最後のトリック（10点）",
    "p2.total": "合計",
    "p2.level": "コンピュータ レベル{n}",
    "p2.streak": "{s}連勝中",
    "p2.nine": "表札の9で10点",
    "p4.us": "味方", "p4.them": "相手", "p4.pass": "パス", "p4.bidding": "ビッド",
    "p4.helper": "切り札ごとのメルド点", "p4.highbid": "最高ビッド", "p4.minbid": "最低",
    "p4.amount": "点数", "p4.bid": "ビッド", "p4.choosetrump": "切り札を決める", "p4.meld": "メルド",
    "p4.throwin": "投了", "p4.made": "成功", "p4.set": "失敗", "p4.lasthand": "前のハンド",
    "p4.trickpts": "カード点", "p4.change": "増減", "p4.contract": "契約",
    "p4.sheet": "得点表", "p4.stuck": "全員パスのため、ディーラーのあなたが{bid}で引き受けます。",
    "p4.handno": "第{n}ハンド", "p4.phase.bidding": "ビッド中", "p4.phase.trump": "切り札決め",
    "p4.phase.passing": "カードの受け渡し", "p4.phase.discard": "捨て札", "p4.phase.play": "プレイ中",
    "p4.phase.over": "終了", "p4.passed": "パス済み", "p4.partner": "パートナー", "p4.dealer": "ディーラー",
    "p4.tricks": "{n}トリック", "p4.passing": "{n}枚を渡す", "p4.giver": "{name}が渡すカードを選んでいます",
    "p4.selected": "選んだカード：", "p4.received": "受け取ったカード：", "p4.give": "渡すカードを選んでください",
    "pq.deal": "第{n}ディール", "pq.elder": "エルダー", "pq.younger": "ヤンガー", "pq.totals": "合計",
    "pq.thisdeal": "このディール", "pq.talon": "山札（{n}枚）", "pq.seen": "見た残りの山：",
    "pq.untaken": "残った山：", "pq.mydiscards": "捨てたカード：", "pq.drawn": "引いたカード：",
    "pq.exchanged": "交換した枚数 ― エルダー {e}、ヤンガー {y}", "pq.declarations": "宣言",
    "pq.hidden": "（選択済み・未公開）", "pq.tricks": "トリック", "pq.events": "このディールの得点",
    "pq.exchange.elder": "交換：捨てるカードを1～5枚選んで確定してください",
    "pq.exchange.younger": "交換：捨てるカードを選んで確定してください",
    "pq.yoursay": "あなたの宣言", "pq.dealcol": "ディール", "pq.sheets": "得点表",
    "pq.cb": "カルト・ブランシュ：{who}に配られたカード",
    "pq.result": "{name}の勝ち：{value}点", "pq.rubicon": "ルビコン（負けた側が100点未満）。",
    "ef.stock": "山札：{n}枚", "ef.points": "得点", "ef.sets": "そろい{n}組", "ef.known": "分かっているカード：",
    "ef.captured": "取った絵札：", "ef.setscol": "そろい",
    "p4.widow": "伏せ札", "p4.discards": "捨てたカード", "p4.discard": "捨てるカードを選んでください",

  },
};

// Option labels and values: "opt.<game>.<name>" or "opt.<name>"; "val.<name>.<value>".
const OPTIONS = {
  en: {
    "opt.pinochle2.double_melds": "Double melds (double run, 1000 aces …)",
    "opt.pinochle2.new_card_rule": "New-card rule (each meld needs a card from the hand)",
    "opt.pinochle2.level": "Computer level",
    "val.level.streak": "Streak ladder",
    "val.level.1": "Level 1", "val.level.2": "Level 2", "val.level.3": "Level 3",
    "val.level.4": "Level 4",
    "opt.strength": "Computer strength",
    "val.strength.weak": "Weak", "val.strength.normal": "Normal", "val.strength.strong": "Strong",
    "val.strength.expert": "Expert",
    "opt.target": "Target score",
    "opt.one_point": "1-point counting (all values ÷ 10)",
    "opt.counters": "Counter scheme",
    "val.counters.A": "A: A/10/K = 10", "val.counters.B": "B: A = 11, 10 = 10, K = 4, Q = 3, J = 2",
    "val.counters.C": "C: A/10 = 10, K/Q = 5",
    "opt.min_bid": "Minimum bid",
    "opt.passing": "Cards passed between bidder and partner",
    "opt.beat_only_trump_leads": "Must beat only on trump leads",
    "opt.extra_kq": "Run + extra K/Q counts (190/230)",
    "opt.all_pass_redeal": "All pass → redeal (otherwise the dealer is stuck)",
    "opt.players": "Number of players",
    "opt.simple_scoring": "Simple scoring (no bonus for a K-Q-J set)",
    "opt.younger_may_exchange_zero": "Younger may exchange 0",
    "val.younger_may_exchange_zero.auto": "Site default", "val.younger_may_exchange_zero.on": "Allowed",
    "val.younger_may_exchange_zero.off": "Not allowed",
    "opt.show_untaken": "Show the untaken talon",
    "opt.four_deals": "Four-deal partie",
    "opt.carte_rouge": "Carte rouge (20)",
    "opt.last_trick_ten": "Last trick 10",
    "opt.sinking": "Sinking",
    "opt.lead_points_ten_or_higher": "Lead points: 10 or higher only",
    "val.lead_points_ten_or_higher.auto": "Site default", "val.lead_points_ten_or_higher.on": "On",
    "val.lead_points_ten_or_higher.off": "Off",
    "opt.au_cent": "Piquet au cent (game to 100)",
    "opt.more_players": "More",
  },
  ja: {
    "opt.pinochle2.double_melds": "ダブルメルド（ダブルラン・1000エースなど）",
    "opt.pinochle2.new_card_rule": "新カードルール（メルドには手札のカードが必要）",
    "opt.pinochle2.level": "コンピュータのレベル",
    "val.level.streak": "連勝で上がる",
    "val.level.1": "レベル1", "val.level.2": "レベル2", "val.level.3": "レベル3",
    "val.level.4": "レベル4",
    "opt.strength": "コンピュータの強さ",
    "val.strength.weak": "弱い", "val.strength.normal": "普通", "val.strength.strong": "強い",
    "val.strength.expert": "達人",
    "opt.target": "目標点",
    "opt.one_point": "1点ずつで数える（すべて10分の1）",
    "opt.counters": "カード点の方式",
    "val.counters.A": "A：A・10・K＝10点", "val.counters.B": "B：A＝11、10＝10、K＝4、Q＝3、J＝2",
    "val.counters.C": "C：A・10＝10点、K・Q＝5点",
    "opt.min_bid": "最低ビッド",
    "opt.passing": "ビッド勝者とパートナーが受け渡すカードの枚数",
    "opt.beat_only_trump_leads": "切り札がリードされたときだけ勝つカードを出す",
    "opt.extra_kq": "ランと別のK・Qも数える（190/230）",
    "opt.all_pass_redeal": "全員パスなら配り直し（なしならディーラーが最低点で決定）",
    "opt.players": "人数",
    "opt.simple_scoring": "簡単な得点（K・Q・Jのそろいのボーナスなし）",
    "opt.younger_may_exchange_zero": "ヤンガーは交換しなくてもOK",
    "val.younger_may_exchange_zero.auto": "サイトの標準", "val.younger_may_exchange_zero.on": "あり",
    "val.younger_may_exchange_zero.off": "なし",
    "opt.show_untaken": "残った山を見せる",
    "opt.four_deals": "4回で勝負する",
    "opt.carte_rouge": "カルト・ルージュ（20点）",
    "opt.last_trick_ten": "最後のトリックの点を10点にする",
    "opt.sinking": "シンク",
    "opt.lead_points_ten_or_higher": "リードの点：10以上だけ",
    "val.lead_points_ten_or_higher.auto": "サイトの標準", "val.lead_points_ten_or_higher.on": "あり",
    "val.lead_points_ten_or_higher.off": "なし",
    "opt.au_cent": "100点先取（ピケ・オ・サン）",
    "opt.more_players": "その他",
  },
};

// Engine texts (reasons, action texts) translated by pattern for Japanese.
const NUM = { three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8 };

const PATTERNS_JA = [
  [/^play (.+)$/i, "$1 を出す"],
  [/^no meld$/i, "メルドしない"],
  [/^meld (.+)$/i, "メルド：$1"],
  [/^pass$/i, "パス"],
  [/^bid (\d+)$/i, "$1 をビッド"],
  [/^trump (.+)$/i, "切り札 $1"],
  [/^give (.+)$/i, "$1 を渡す"],
  [/^discard (.+)$/i, "$1 を捨てる"],
  [/^point of (three|four|five|six|seven|eight)$/i, (m, w) => `ポイント（${NUM[w.toLowerCase()]}枚）`],
  [/^You must follow suit: (\S+) was led and you hold (.)$/, "台札は$1です。$2を持っているので同じスートを出してください"],
  [/^You must follow suit: you hold (.) \(play a (.) or the Joker\)$/, "$1を持っているので、$1かジョーカーを出してください"],
  [/^You must follow suit: you hold (.) \(play a (.)\)$/, "$1を持っているので、$1を出してください"],
  [/^You must follow suit: you hold (.)$/, "台札のスート（$1）を持っているので、それを出してください"],
  [/^You must follow (.) and win the trick: play (.+)$/, "$1を出してトリックに勝たなければなりません：$2"],
  [/^You must follow (.): play (.+)$/, "$1を出さなければなりません：$2"],
  [/^You have no (.), so you must play a trump \((.)\): play (.+)$/, "$1がないので切り札（$2）を出してください：$3"],
  [/^You are void in (.), so you must trump: you hold (.)$/, "$1がないので切り札（$2）を出してください"],
  [/^You must beat the winning (\S+) with a higher (.): you hold (.+)$/, "いま勝っている$1より強い$2を出してください（$3）"],
  [/^You must over-trump the winning (\S+): you hold (.+)$/, "いま勝っている$1より強い切り札を出してください（$2）"],
  [/^On the first lead of the game you may not lead a spade.*$/, "最初のリードではスペードは出せません（♦・♥・ジョーカーを出してください）"],
  [/^On the first lead of the game you may not lead a trump.*$/, "最初のリードでは切り札（♣）は出せません（♦・♥・ジョーカーを出してください）"],
  [/^The ♠3 has been played and you hold the Joker.*$/, "♠3が出たので、ジョーカーを出さなければなりません"],
  [/^You hold a trump: the Joker forces you to play one$/, "ジョーカーが出たので、切り札を出さなければなりません"],
  [/^You won the trick: make a meld or decline.*$/, "トリックに勝ちました。メルドするか「メルドしない」を選んでください"],
  [/you must follow suit/i, "台札と同じスートを出さなければなりません"],
  [/not your turn|it is not your turn/i, "あなたの番ではありません"],
  [/the game is over/i, "ゲームは終わっています"],
];

const MELDS_JA = {
  "run": "ラン", "royal marriage": "ロイヤルマリッジ", "marriage": "マリッジ", "dix": "ディクス",
  "pinochle": "ピノクル", "double pinochle": "ダブルピノクル", "aces around": "エース・アラウンド",
  "kings around": "キング・アラウンド", "queens around": "クイーン・アラウンド",
  "jacks around": "ジャック・アラウンド", "double run": "ダブルラン", "1000 aces": "1000エース",
  "800 kings": "800キング", "600 queens": "600クイーン", "400 jacks": "400ジャック",
};

let current = null;
const listeners = new Set();

/** The active language: "en" or "ja". */
export function lang() {
  if (current) return current;
  let stored = null;
  try { stored = localStorage.getItem("cardplaza.lang"); } catch { /* private mode */ }
  if (stored === "en" || stored === "ja") current = stored;
  else current = (navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
  return current;
}

/** Switch language, remember it, and notify listeners. */
export function setLang(value) {
  current = value === "ja" ? "ja" : "en";
  try { localStorage.setItem("cardplaza.lang", current); } catch { /* ignore */ }
  document.documentElement.lang = current;
  for (const fn of listeners) fn(current);
}

/** Call fn(lang) whenever the language changes. */
export function onLang(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** Whether a key exists in the active language. */
export function has(key) {
  const l = lang();
  return key in DICT[l] || key in OPTIONS[l];
}

/** Translate a key with {placeholders}; unknown keys fall back to English, then the key. */
export function t(key, vars = {}) {
  const l = lang();
  let s = DICT[l][key] ?? OPTIONS[l][key] ?? DICT.en[key] ?? OPTIONS.en[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

// Piquet's words (the seed's: ポイント, シークエンス, セット, リード, ピック, ルピック, カポ,
// カルト・ブランシュ): whole phrases first, then the combination names inside other texts.
const RANK_JA = { seven: "7", eight: "8", nine: "9", ten: "10", jack: "J", queen: "Q", king: "K",
                  ace: "A", sevens: "7", eights: "8", nines: "9", tens: "10", jacks: "J",
                  queens: "Q", kings: "K", aces: "A" };
const SEQ_LEN = { Tierce: 3, Quart: 4, Quint: 5, "Sixième": 6, "Septième": 7, "Huitième": 8 };
const SEQ_RE = "(Tierce|Quart|Quint|Sixième|Septième|Huitième)";
// A minor sequence runs from the seven: a tierce minor to the nine, a quart minor to the ten.
const MINOR_TOP = { Tierce: "9", Quart: "10" };
const seqJa = (name, top, suit) => `${SEQ_LEN[name]}枚シークエンス（${suit}・${top}まで）`;
const PIQUET_PHRASES_JA = [
  [/^Point of (three|four|five|six|seven|eight) in (.) \((\d+)\)$/,
    (_, n, suit, sum) => `ポイント（${suit}${NUM[n]}枚・${sum}）`],
  [new RegExp(`^${SEQ_RE} to the (\\w+) \\((.)\\)$`), (_, q, r, suit) => seqJa(q, RANK_JA[r], suit)],
  [new RegExp(`^${SEQ_RE} major \\((.)\\)$`), (_, q, suit) => seqJa(q, "A", suit)],
  [new RegExp(`^${SEQ_RE} minor \\((.)\\)$`), (_, q, suit) => seqJa(q, MINOR_TOP[q], suit)],
  [/^Making (\d+)$/, "合計$1"],
  [/^To the (\w+)$/, (_, r) => `${RANK_JA[r] ?? r}まで`],
  [/^No sequence$/, "シークエンスなし"], [/^No set$/, "セットなし"], [/^None$/, "なし"],
  [/^add none$/, "追加なし"], [/^add (.+)$/, "$1 も数える"],
  [/^point (.)$/, "ポイントのスート：$1"],
  [/^chooses which combinations to score$/, "数える組を選んでいます"],
  // The score sheet's events.
  [/^Carte blanche$/, "カルト・ブランシュ"], [/^Carte rouge$/, "カルト・ルージュ"],
  [/^Point$/, "ポイント"], [/^Sequences$/, "シークエンス"], [/^Sets$/, "セット"],
  [/^Lead$/, "リード"], [/^Capture$/, "トリックの勝ち"], [/^Last trick$/, "最後のトリック"],
  [/^Cards$/, "7回以上のトリック"], [/^Capot$/, "カポ"], [/^Pique$/, "ピック"],
  [/^Repique$/, "ルピック"],
];
const PIQUET_WORDS_JA = [
  [/\bTierce\b/g, "3枚シークエンス"], [/\bQuart\b/g, "4枚シークエンス"],
  [/\bQuint\b/g, "5枚シークエンス"], [/Sixième/g, "6枚シークエンス"],
  [/Septième/g, "7枚シークエンス"], [/Huitième/g, "8枚シークエンス"],
  [/\bQuatorze of (aces|kings|queens|jacks|tens)\b/g, (_, r) => `4枚セット（${RANK_JA[r]}）`],
  [/\bTrio of (aces|kings|queens|jacks|tens)\b/g, (_, r) => `3枚セット（${RANK_JA[r]}）`],
];

function piquetWords(text) {
  for (const [re, rep] of PIQUET_PHRASES_JA) if (re.test(text)) return text.replace(re, rep);
  let out = text;
  for (const [re, rep] of PIQUET_WORDS_JA) out = out.replace(re, rep);
  return out;
}

/** Translate an engine text (action text or reason) where a pattern is known. */
export function engineText(text) {
  if (lang() !== "ja" || typeof text !== "string") return text;
  let out = text;
  for (const [name, ja] of Object.entries(MELDS_JA).sort((a, b) => b[0].length - a[0].length)) {
    if (out.toLowerCase().startsWith(`meld ${name}`)) {
      out = `メルド：${ja}${out.slice(5 + name.length)}`;
      return out;
    }
  }
  for (const [re, rep] of PATTERNS_JA) {
    if (re.test(out)) return piquetWords(out.replace(re, rep).replace(/ or /g, "・"));
  }
  return piquetWords(out);
}

/** Japanese or English name of a meld. */
export function meldName(name) {
  return lang() === "ja" ? (MELDS_JA[name] ?? name) : name;
}

/** Label of an option field of a game. */
export function optionLabel(game, name) {
  for (const key of [`opt.${game}.${name}`, `opt.${name}`]) if (has(key) || key in OPTIONS.en) return t(key);
  return name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

/** Label of an option value. */
export function valueLabel(name, value) {
  if (value === true) return t("yes");
  if (value === false) return t("no");
  const key = `val.${name}.${value}`;
  return key in OPTIONS.en || key in OPTIONS[lang()] ? t(key) : String(value);
}
