// Japanese and English texts. The language comes from localStorage, else navigator.language.
// Everything the table shows goes through these tables, engine texts by pattern (below).

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
    "lobby.players.range": "{lo}–{hi} players",
    "lobby.options": "Options",
    "lobby.more": "More options",
    "lobby.start": "Start game",
    "lobby.name": "Your name",
    "lobby.level": "Computer strength",
    "lobby.resume": "Games in progress",
    "lobby.resume.btn": "Continue",
    "lobby.resume.started": "started {time}",
    "lobby.forget": "Forget",
    "lobby.rules": "Rules of {game}",
    "lobby.error": "Could not start the game: {msg}",
    "lobby.mode": "Mode",
    "lobby.mode.streak": "Winning streak (level rises with each win)",
    "lobby.mode.practice": "Practice at a fixed level",
    "lobby.streak.info": "Streak {s} · saved score {saved} · best {best} · next level {lv}",
    "lobby.streak.warn": "Starting a new game ends your current streak of {s}.",
    "lobby.loading": "Loading…",
    "desc.pinochle2": "Two players, a 48-card deck: draw from the stock, meld after each trick you win.",
    "desc.pinochle4": "Two partnerships bid for trump, pass cards, meld and take tricks.",
    "desc.pinochle3": "Cut-throat: three players, the high bidder takes the widow and plays alone.",
    "desc.piquet": "The classic two-hand game: exchange with the talon, declare, then play twelve tricks.",
    "desc.efudatori": "Japanese party game: the trump turns every trick; capture the picture cards.",
    "suits.pinochle2": "♠♥", "suits.pinochle4": "♣♦", "suits.pinochle3": "♠♦", "suits.piquet": "♥♣",
    "suits.efudatori": "♚♛",
    "table.you": "You",
    "table.computer": "Computer {n}",
    "table.computer1": "Computer",
    "table.turn.you": "Your turn",
    "table.turn.other": "{name} is thinking…",
    "table.turn.waiting": "Waiting for {name}",
    "table.thinking": "thinking…",
    "table.trump": "Trump",
    "table.scores": "Scores",
    "table.trick": "Trick",
    "table.trick.n": "Trick {n}",
    "table.trick.of": "Trick {n}/{total}",
    "table.takes": "{name} takes the trick", "table.takes.you": "You take the trick",
    "table.takes.short": "→ {name}",
    "table.wins": "wins",
    "table.last": "Last trick",
    "table.hand": "Your hand",
    "table.cards": "{n} cards",
    "table.stock": "Stock",
    "table.actions": "Actions",
    "table.ok": "OK",
    "table.leave": "Leave the table",
    "table.info": "Table details",
    "table.connecting": "Connecting…",
    "table.reconnecting": "Connection lost — reconnecting…",
    "table.notfound": "This table no longer exists.",
    "table.melds": "Melds",
    "prompt.play": "Your turn — play a card",
    "prompt.playoff": "Your turn — play a card (follow suit and win if you can)",
    "prompt.bid": "Your bid",
    "pick.title": "Choose cards, then confirm",
    "pick.count": "{k} of {n} chosen",
    "pick.chosen": "{k} chosen",
    "pick.clear": "Clear",
    "pick.confirm": "Confirm",
    "badge.dealer": "D",
    "badge.bidder": "Bid {n}",
    "role.dealer": "Dealer",
    "role.bidder": "Bidder",
    "role.partner": "partner",
    "seat.tricks": "{n} tricks",
    "seat.points": "{n} pts",
    "seat.meld": "meld {n}",
    "dir.w": "West", "dir.n": "North", "dir.e": "East",
    "drawer.label": "Table information", "tab.score": "Score", "tab.declared": "Declared",
    "drawer.bids": "Bids",
    "drawer.tricks": "Tricks",
    "drawer.settings": "Settings",
    "drawer.close": "Close",
    "set.pace": "Pace of play",
    "set.reduced": "Your system asks for reduced motion: cards do not move.",
    "set.sound": "Sounds",
    "set.fourcolour": "Four-colour deck (♦ blue, ♣ green)",
    "pace.slow": "Slow", "pace.normal": "Normal", "pace.fast": "Fast", "pace.instant": "Instant (no motion)",
    "summary.continue": "Continue",
    "chart.title": "Score over the hands",
    "chart.tricks": "Points over the tricks",
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
    "err.unknown": "Something went wrong ({code}).",
    "err.bad_json": "The request could not be read.",
    "err.bad_message": "The server did not understand a message.",
    "err.bad_request": "The request was refused: {detail}",
    "err.bad_options": "Those options cannot be combined: {detail}",
    "err.bad_level": "That computer level does not exist.",
    "err.bad_name": "A name may have at most 20 characters.",
    "err.unknown_game": "That game does not exist.",
    "err.unknown_table": "This table no longer exists.",
    "err.broken_table": "This table cannot be restored.",
    "err.bad_token": "This seat belongs to someone else.",
    "err.not_joined": "Not connected to the table yet.",
    "err.not_your_turn": "It is not your turn.",
    "err.game_over": "The game is over.",
    "err.stale": "The table moved on; your view is being refreshed.",
    "err.bad_action": "That move is not possible now.",
    "err.illegal": "That move is not allowed now.",
    "err.too_large": "Message too large.",
    "err.rate_limited": "Too many requests; please wait a moment.",
    "err.too_many_tables": "The server is full; please try again later.",
    "err.not_finished": "That game is not finished yet.",
    "err.no_rules": "There is no rules page for this game.",
    "err.reconnecting": "Connection lost — reconnecting…",
    // two-hand pinochle
    "p2.turnup": "Turn-up",
    "p2.stockcount": "{n} cards in the stock",
    "p2.stockshort": "Stock {n}",
    "p2.playoff": "Stock used up: follow suit and win the trick if you can",
    "p2.meldq": "You won the trick: make a meld?",
    "p2.nomeld": "No meld",
    "p2.nomelds": "No melds yet.",
    "p2.ontable": "Melded:",
    "p2.tag.melded": "meld",
    "p2.meldpts": "Meld points",
    "p2.known": "Known to hold:",
    "p2.counters": "Counters",
    "p2.lasttrick": "Last trick (10)",
    "p2.total": "Total",
    "p2.level": "Computer level {n}",
    "p2.streak": "Streak {s}",
    "p2.nine": "10 for the turned-up 9",
    // four-hand and cut-throat pinochle
    "p4.us": "Us", "p4.them": "Them", "p4.pass": "Pass", "p4.bidding": "Bidding",
    "p4.helper": "Your meld if trump is:", "p4.bidn": "Bid {n}", "p4.lower": "Lower bid", "p4.higher": "Higher bid",
    "p4.nobid": "No bid yet · minimum {n}", "p4.highbidby": "High bid {n} — {name}",
    "p4.choosetrump": "Name trump", "p4.meldn": "meld {n}", "p4.naming": "{name} is naming trump",
    "p4.throwin": "thrown in", "p4.made": "made", "p4.set": "set", "p4.redeal": "redeal",
    "p4.trickpts": "Trick points", "p4.change": "This hand", "p4.running": "Score", "p4.contract": "Contract",
    "p4.contractchip": "{name} bid {n}", "p4.contractline": "{name} plays {n} in {trump}.",
    "p4.sheet": "Score sheet", "p4.nosheet": "No hand finished yet.", "p4.target": "Game to {n}",
    "p4.stuck": "Everyone passed: as dealer you take the bid at {bid}.",
    "p4.stuckother": "Everyone passed: the dealer {name} takes the bid at {bid}.",
    "p4.handno": "Hand {n}",
    "p4.giver": "{name} chooses {n} cards to pass", "p4.received": "Received:",
    "p4.passn": "Choose {n} cards to pass", "p4.passok": "Pass {n} cards",
    "p4.discardn": "Discard {n} cards", "p4.discardok": "Discard these {n}",
    "p4.burying": "{name} buries {n} cards",
    "p4.tag.widow": "widow", "p4.tag.received": "new", "p4.tag.meld": "meld",
    "p4.widow": "Widow (turned face up)",
    "p4.meldshown": "Melds shown", "p4.nomeld": "no meld", "p4.whomelded": "Melds",
    "p4.nobids": "No bids yet.", "p4.passed": "passed", "p4.bidword": "bid {n}",
    "p4.summarytitle": "Hand {n}", "p4.summaryline": "{name} bid {n} {trump}: {res}",
    "p4.redealline": "Everyone passed: the cards are dealt again.",
    // piquet
    "pq.deal": "Deal {n}", "pq.dealof": "Deal {n}/{total}", "pq.elder": "Elder", "pq.younger": "Younger",
    "pq.totals": "Partie", "pq.thisdeal": "This deal",
    "pq.mult": "Deal ×{m}", "pq.mult.help": "Deals 1 and 4 of the partie count double (×2).",
    "pq.talon": "Talon: {n} cards", "pq.talonshort": "Talon", "pq.seen": "Untaken cards you saw:",
    "pq.untaken": "Untaken cards:", "pq.mydiscards": "Your discards:", "pq.drawn": "You drew:",
    "pq.exchanged": "Exchanged — Elder {e}, Younger {y}", "pq.declarations": "Declarations",
    "pq.exchanging": "{name} is exchanging", "pq.nodecl": "Nothing declared yet.",
    "pq.hidden": "(chosen, not yet shown)", "pq.tricks": "Tricks", "pq.events": "Points this deal",
    "pq.exchange.range": "Exchange: choose {lo}–{hi} cards to discard",
    "pq.exchange.exact": "Exchange: choose {lo} cards to discard",
    "pq.exchangek": "Exchange {k}", "pq.exchangenone": "Keep my cards",
    "pq.prompt.exchange": "Your turn — choose the cards to exchange",
    "pq.tag.drawn": "new",
    "pq.yoursay": "Your declaration", "pq.dealcol": "Deal", "pq.sheets": "Score sheet", "pq.nosheet": "No deal finished yet.",
    "pq.cb": "Carte blanche: the cards dealt to {who}", "pq.combos": "Combinations shown",
    "pq.dealpts": "Counted", "pq.summarytitle": "Deal {n}",
    "pq.result": "{name} wins the partie: {value} points.", "pq.rubicon": "Rubiconed (the loser stayed under 100).",
    // e-fuda-tori
    "ef.stock": "Stock {n}", "ef.points": "Points", "ef.sets": "{n} K-Q-J set(s)", "ef.setsbadge": "set×{n}",
    "ef.known": "Cards known to all", "ef.capturedtab": "Captured", "ef.setscol": "Sets",
    "ef.scoring": "K 20, Q 10, J 5; a K-Q-J of one suit adds 50.",
    "ef.scoring.simple": "K 20, Q 10, J 5 (simple scoring).",
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
    "lobby.players.range": "{lo}～{hi}人",
    "lobby.options": "設定",
    "lobby.more": "その他の設定",
    "lobby.start": "ゲーム開始",
    "lobby.name": "プレイヤー名",
    "lobby.level": "コンピュータの強さ",
    "lobby.resume": "遊びかけのゲーム",
    "lobby.resume.btn": "続ける",
    "lobby.resume.started": "{time}に開始",
    "lobby.forget": "削除",
    "lobby.rules": "{game}のルール",
    "lobby.error": "ゲームを開始できません：{msg}",
    "lobby.mode": "モード",
    "lobby.mode.streak": "連勝モード（勝つたびにレベルが上がる）",
    "lobby.mode.practice": "練習（レベル固定）",
    "lobby.streak.info": "連勝 {s} ・ セーブスコア {saved} ・ ベスト {best} ・ 次のレベル {lv}",
    "lobby.streak.warn": "新しく始めると、いまの{s}連勝は終わります。",
    "lobby.loading": "読み込み中…",
    "desc.pinochle2": "2人用・48枚。山札から引きながら、トリックに勝つたびにメルドします。",
    "desc.pinochle4": "2人ずつのチーム戦。ビッドで切り札を決め、カードを渡し合い、メルドとトリックで得点。",
    "desc.pinochle3": "3人の個人戦。最高ビッドの人がウィドウを取り、1人で2人と戦います。",
    "desc.piquet": "2人用の古典。山札と交換し、役を宣言してから12トリックを戦います。",
    "desc.efudatori": "日本のパーティーゲーム。切り札がトリックごとに変わり、絵札を取り合います。",
    "suits.pinochle2": "♠♥", "suits.pinochle4": "♣♦", "suits.pinochle3": "♠♦", "suits.piquet": "♥♣",
    "suits.efudatori": "♚♛",
    "table.you": "あなた",
    "table.computer": "コンピュータ{n}",
    "table.computer1": "コンピュータ",
    "table.turn.you": "あなたの番です",
    "table.turn.other": "{name}が考えています…",
    "table.turn.waiting": "{name}を待っています",
    "table.thinking": "考え中…",
    "table.trump": "切り札",
    "table.scores": "得点",
    "table.trick": "トリック",
    "table.trick.n": "第{n}トリック",
    "table.trick.of": "トリック {n}/{total}",
    "table.takes": "{name}がトリックを取りました", "table.takes.you": "あなたがトリックを取りました",
    "table.takes.short": "→ {name}",
    "table.wins": "勝ち",
    "table.last": "直前のトリック",
    "table.hand": "手札",
    "table.cards": "{n}枚",
    "table.stock": "山札",
    "table.actions": "操作",
    "table.ok": "決定",
    "table.leave": "テーブルを離れる",
    "table.info": "テーブルの詳細",
    "table.connecting": "接続中…",
    "table.reconnecting": "接続が切れました。再接続しています…",
    "table.notfound": "このテーブルはもうありません。",
    "table.melds": "メルド",
    "prompt.play": "あなたの番：カードを出してください",
    "prompt.playoff": "あなたの番：同じスートを出し、できれば勝ってください",
    "prompt.bid": "あなたのビッドです",
    "pick.title": "カードを選んで確定してください",
    "pick.count": "{n}枚中{k}枚を選択",
    "pick.chosen": "{k}枚を選択",
    "pick.clear": "選び直す",
    "pick.confirm": "確定",
    "badge.dealer": "親",
    "badge.bidder": "{n}点",
    "role.dealer": "ディーラー（親）",
    "role.bidder": "ビッド勝者",
    "role.partner": "パートナー",
    "seat.tricks": "{n}トリック",
    "seat.points": "{n}点",
    "seat.meld": "メルド{n}",
    "dir.w": "西", "dir.n": "北", "dir.e": "東",
    "drawer.label": "テーブルの情報", "tab.score": "得点表", "tab.declared": "宣言",
    "drawer.bids": "ビッド",
    "drawer.tricks": "トリック",
    "drawer.settings": "設定",
    "drawer.close": "閉じる",
    "set.pace": "進行の速さ",
    "set.reduced": "システムで「視差効果を減らす」が選ばれているため、カードは動きません。",
    "set.sound": "効果音",
    "set.fourcolour": "4色のカード（♦青・♣緑）",
    "pace.slow": "ゆっくり", "pace.normal": "ふつう", "pace.fast": "はやい", "pace.instant": "すぐ（動きなし）",
    "summary.continue": "次へ",
    "chart.title": "ハンドごとの得点の推移",
    "chart.tricks": "トリックごとの得点の推移",
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
    "err.unknown": "問題が起きました（{code}）。",
    "err.bad_json": "リクエストを読み取れませんでした。",
    "err.bad_message": "サーバーがメッセージを理解できませんでした。",
    "err.bad_request": "リクエストが受け付けられませんでした。",
    "err.bad_options": "この設定の組み合わせは使えません。",
    "err.bad_level": "そのコンピュータのレベルはありません。",
    "err.bad_name": "名前は20文字までです。",
    "err.unknown_game": "そのゲームはありません。",
    "err.unknown_table": "このテーブルはもうありません。",
    "err.broken_table": "このテーブルは復元できません。",
    "err.bad_token": "この席はほかの人の席です。",
    "err.not_joined": "まだテーブルに接続していません。",
    "err.not_your_turn": "あなたの番ではありません。",
    "err.game_over": "ゲームは終わっています。",
    "err.stale": "テーブルが進んでいたので、表示を更新しています。",
    "err.bad_action": "いまはその手はできません。",
    "err.illegal": "いまはその手は認められていません。",
    "err.too_large": "メッセージが大きすぎます。",
    "err.rate_limited": "操作が多すぎます。少し待ってください。",
    "err.too_many_tables": "サーバーが混み合っています。しばらくしてからお試しください。",
    "err.not_finished": "そのゲームはまだ終わっていません。",
    "err.no_rules": "このゲームのルールページはありません。",
    "err.reconnecting": "接続が切れました。再接続しています…",
    "p2.turnup": "表向きの切り札札",
    "p2.stockcount": "山札 残り{n}枚",
    "p2.stockshort": "山札 {n}",
    "p2.playoff": "山札がなくなりました：同じスートを出し、できれば勝つこと",
    "p2.meldq": "トリックに勝ちました。メルドしますか？",
    "p2.nomeld": "メルドしない",
    "p2.nomelds": "まだメルドはありません。",
    "p2.ontable": "メルド済み：",
    "p2.tag.melded": "場",
    "p2.meldpts": "メルド点",
    "p2.known": "持っていると分かる札：",
    "p2.counters": "カード点",
    "p2.lasttrick": "最後のトリック（10点）",
    "p2.total": "合計",
    "p2.level": "コンピュータ レベル{n}",
    "p2.streak": "{s}連勝中",
    "p2.nine": "表札の9で10点",
    "p4.us": "味方", "p4.them": "相手", "p4.pass": "パス", "p4.bidding": "ビッド",
    "p4.helper": "切り札ごとのメルド点", "p4.bidn": "{n}でビッド", "p4.lower": "ビッドを下げる", "p4.higher": "ビッドを上げる",
    "p4.nobid": "まだビッドなし・最低{n}", "p4.highbidby": "最高ビッド {n}（{name}）",
    "p4.choosetrump": "切り札を決める", "p4.meldn": "メルド{n}", "p4.naming": "{name}が切り札を決めています",
    "p4.throwin": "投了", "p4.made": "成功", "p4.set": "失敗", "p4.redeal": "配り直し",
    "p4.trickpts": "カード点", "p4.change": "このハンド", "p4.running": "合計", "p4.contract": "契約",
    "p4.contractchip": "{name}の契約 {n}", "p4.contractline": "{name}が{n}・切り札{trump}で契約。",
    "p4.sheet": "得点表", "p4.nosheet": "まだ終わったハンドはありません。", "p4.target": "{n}点先取",
    "p4.stuck": "全員パスのため、ディーラーのあなたが{bid}で引き受けます。",
    "p4.stuckother": "全員パスのため、ディーラーの{name}が{bid}で引き受けます。",
    "p4.handno": "第{n}ハンド",
    "p4.giver": "{name}が渡す{n}枚を選んでいます", "p4.received": "受け取ったカード：",
    "p4.passn": "渡すカードを{n}枚選んでください", "p4.passok": "{n}枚を渡す",
    "p4.discardn": "捨てるカードを{n}枚選んでください", "p4.discardok": "この{n}枚を捨てる",
    "p4.burying": "{name}が{n}枚を伏せています",
    "p4.tag.widow": "ウィドウ", "p4.tag.received": "受取", "p4.tag.meld": "メルド",
    "p4.widow": "ウィドウ（表向きの3枚）",
    "p4.meldshown": "場に出したメルド", "p4.nomeld": "メルドなし", "p4.whomelded": "メルド",
    "p4.nobids": "まだビッドはありません。", "p4.passed": "パス", "p4.bidword": "ビッド{n}",
    "p4.summarytitle": "第{n}ハンドの結果", "p4.summaryline": "{name}が{n}・切り札{trump}：{res}",
    "p4.redealline": "全員パスのため配り直します。",
    "pq.deal": "第{n}ディール", "pq.dealof": "ディール {n}/{total}", "pq.elder": "エルダー", "pq.younger": "ヤンガー",
    "pq.totals": "合計", "pq.thisdeal": "このディール",
    "pq.mult": "得点×{m}", "pq.mult.help": "第1・第4ディールの得点は2倍になります。",
    "pq.talon": "山札：{n}枚", "pq.talonshort": "山札", "pq.seen": "見た残りの山：",
    "pq.untaken": "残った山：", "pq.mydiscards": "捨てたカード：", "pq.drawn": "引いたカード：",
    "pq.exchanged": "交換した枚数 ― エルダー {e}、ヤンガー {y}", "pq.declarations": "宣言",
    "pq.exchanging": "{name}が交換しています", "pq.nodecl": "まだ宣言はありません。",
    "pq.hidden": "（選択済み・未公開）", "pq.tricks": "トリック", "pq.events": "このディールの得点",
    "pq.exchange.range": "交換：捨てるカードを{lo}～{hi}枚選んでください",
    "pq.exchange.exact": "交換：捨てるカードを{lo}枚選んでください",
    "pq.exchangek": "{k}枚交換する", "pq.exchangenone": "交換しない",
    "pq.prompt.exchange": "あなたの番：交換するカードを選んでください",
    "pq.tag.drawn": "新",
    "pq.yoursay": "あなたの宣言", "pq.dealcol": "ディール", "pq.sheets": "得点表", "pq.nosheet": "まだ終わったディールはありません。",
    "pq.cb": "カルト・ブランシュ：{who}に配られたカード", "pq.combos": "見せた役",
    "pq.dealpts": "得点", "pq.summarytitle": "第{n}ディールの結果",
    "pq.result": "{name}の勝ち：{value}点", "pq.rubicon": "ルビコン（負けた側が100点未満）。",
    "ef.stock": "山札 {n}", "ef.points": "得点", "ef.sets": "そろい{n}組", "ef.setsbadge": "そろい×{n}",
    "ef.known": "全員に見えているカード", "ef.capturedtab": "取った絵札", "ef.setscol": "そろい",
    "ef.scoring": "K 20点、Q 10点、J 5点。同じスートのK・Q・Jがそろうと50点追加。",
    "ef.scoring.simple": "K 20点、Q 10点、J 5点（簡単な得点）。",
  },
};

// Meld names by key (four-hand keys; two-hand names with spaces map to the same keys).
const MELDS = {
  en: {
    run: "Run", run_extra_k: "Run with an extra trump K", run_extra_q: "Run with an extra trump Q",
    run_extra_kq: "Run with an extra trump K and Q", double_run: "Double run",
    royal_marriage: "Royal marriage", marriage: "Marriage", dix: "Dix", pinochle: "Pinochle",
    double_pinochle: "Double pinochle", aces_around: "Aces around", kings_around: "Kings around",
    queens_around: "Queens around", jacks_around: "Jacks around", double_aces: "Double aces",
    double_kings: "Double kings", double_queens: "Double queens", double_jacks: "Double jacks",
    "1000_aces": "1000 aces", "800_kings": "800 kings", "600_queens": "600 queens", "400_jacks": "400 jacks",
  },
  ja: {
    run: "ラン", run_extra_k: "ラン＋切り札のK", run_extra_q: "ラン＋切り札のQ",
    run_extra_kq: "ラン＋切り札のKとQ", double_run: "ダブルラン",
    royal_marriage: "ロイヤルマリッジ", marriage: "マリッジ", dix: "ディクス（切り札の9）", pinochle: "ピノクル",
    double_pinochle: "ダブルピノクル", aces_around: "エース・アラウンド", kings_around: "キング・アラウンド",
    queens_around: "クイーン・アラウンド", jacks_around: "ジャック・アラウンド", double_aces: "ダブル・エース",
    double_kings: "ダブル・キング", double_queens: "ダブル・クイーン", double_jacks: "ダブル・ジャック",
    "1000_aces": "1000エース", "800_kings": "800キング", "600_queens": "600クイーン", "400_jacks": "400ジャック",
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
  [/^Good$/, "グッド"], [/^Not good$/, "ノット・グッド"], [/^Equal$/, "イコール"],
  [/^Making\?$/, "何点？"], [/^To what\?$/, "どこまで？"], [/^How many\?$/, "何枚？"],
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
  const names = Object.keys(MELDS.ja).map((k) => k.replace(/_/g, " ")).sort((a, b) => b.length - a.length);
  for (const name of names) {
    if (out.toLowerCase().startsWith(`meld ${name}`)) {
      return `メルド：${MELDS.ja[name.replace(/ /g, "_")]}${out.slice(5 + name.length)}`;
    }
  }
  for (const [re, rep] of PATTERNS_JA) {
    if (re.test(out)) return piquetWords(out.replace(re, rep).replace(/ or /g, "・"));
  }
  return piquetWords(out);
}

/** Name of a meld from its key ("royal_marriage") or two-hand name ("royal marriage"). */
export function meldText(key, suit = null) {
  const k = String(key).toLowerCase().replace(/ /g, "_");
  const base = MELDS[lang()][k] ?? MELDS.en[k] ?? String(key);
  return suit && k === "marriage" ? `${base} ${suit}` : base;
}

/** A server error (code, English message, params) in the player's language. */
export function errorText(code, message = "", params = {}) {
  const detail = engineText(message || "");
  if (code === "illegal_card" || (code === "illegal" && message)) {
    if (lang() === "en" || detail !== message) return detail;
    return t("err.illegal");
  }
  const key = `err.${code}`;
  if (code && (key in DICT.en)) return t(key, { detail, ...(params || {}) });
  if (lang() === "en" && message) return message;
  return t("err.unknown", { code: code || "?" });
}

/** Every dictionary (for tests that compare the page's text with both languages). */
export function dictionaries() {
  return { DICT, OPTIONS, MELDS };
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
