/* The site's search, on search.html only (whatcopy/sphinxext/site_search.py): Pagefind's index
   of the finished pages, queried so that whatever a learner pastes or types finds its page.

   Pagefind lists a page only when it holds every word of the query, which a pasted error message
   (with its tensor sizes and version numbers) or a question in one's own words rarely meets.
   So each word is looked up on its own, and a page's score is the sum of its scores for the words
   it holds (Pagefind's BM25 for each: rare words weigh more, words on every page almost nothing).

   Which pages are listed. A word's weight is how rare it is on the site (Pagefind's inverse
   document frequency; a word on no page would weigh most). A page is a match when the words it
   holds carry RANKING.SHARE of the weight of the whole query, the words the site never uses
   included, and some page holds all the query's words the site has within one passage (a
   query of three words or more; the words of "BCE Loss vs Cross Entropy" are each on some page,
   never together): then only matches are listed, or, where fewer than RANKING.FEWEST pages are (a word
   that one page holds by chance can weigh most of a query), the matches and after them the
   closest other pages, under a notice. When no page is a match (a pasted message with words
   the site never prints, such as "writable", or a question in one's own words), the pages that
   hold the most of the words the site does use are listed all the same, under a notice that
   names the words no page holds: a query is never left with an empty page while some page holds
   one of its words. A query about something the site does not cover is listed that way too, its
   notice saying that no page holds it (tests/test_browser.py: no off-topic query lists a match).
   A pasted message (it names a class of error or warning with its colon: RuntimeError:, CUDA
   error:) is held only where its words come in its order, each about as far after the one
   before as the message has it: a long page that holds its words scattered (the error atlas
   holds cuda, device, assert and triggered, never together) is no match for it.

   How they are ranked. A page's score is its BM25 over the words it holds (Pagefind's, with the
   RANKING.pagefind settings: occurrences saturate fast and a long page's count is discounted),
   times (1 + PASSAGE_BOOST x the share of the query's weight that one passage of the page holds:
   its words found together within a window of words), times (1 + TITLE_BOOST x the share its
   title holds). Among the first pages, one with a heading that holds every word of the query,
   one with a row of the operator reference for an operator the query names, and one with an
   entry of the error atlas (errors.md, a section per message, its heading the message) that
   holds a pasted message count more; the result links to that row, or to that entry.

   Chinese has no spaces between words. Pagefind segmented the pages with jieba when it built the
   index; a run of Han characters in the query is split here into the index's own words, the
   split that covers the most characters with words of two or more (as a reader reads it), and
   a lone character left over is joined to its neighbour when the site holds the two together
   (原张量 is 原 then 张量 on the pages). Words that only say how one asks (如何, 是否, 吗, 详解
   ...) or where and when (the 时 of 训练时, the 后 of 修改后) are dropped, and a reader's word that the site writes differently (共享 for the site's 共用,
   from docs/terms.tsv) is looked up as the site's; so is the English of a term (view for 视图). Pagefind would split a query itself with
   the browser's word segmenter (Intl.Segmenter), whose dictionary lacks the site's words (张量
   becomes 张 and 量): it is initialised as for a language written with spaces, so that it looks
   up each word it is given as one word.

   The code, the WebAssembly and the index chunks load when the reader searches, not before.
   The pure functions are tested in Node (tests/site_search.test.cjs), the search in Chromium
   (tests/test_browser.py, over tests/search_queries.tsv). */
"use strict";

const SiteSearchRanking = (() => {
  /* ---- The constants of the ranking, all of them. ---------------------------------------- */
  const RANKING = Object.freeze({
    MAX_RESULTS: 10, // results shown
    FEWEST: 3, // pages listed when some are matches: fewer matches are followed by the closest others
    SHARE: 0.6, // of the whole query's weight, that a page must hold to be a match
    PASSAGE_BOOST: 4, // a page counts up to 1 + this times more when one passage holds the query
    WINDOW: 12, // words: how close a page's matches must be to count as one passage ...
    WINDOW_PER_WORD: 1.5, // ... or this many per word of a long query (a pasted message)
    TITLE_BOOST: 0, // a page counts up to 1 + this times more when its title holds the query
    HEADING_BOOST: 2, // and 1 + this when a heading holds every word of the query
    ROW_BOOST: 2, // and 1 + this when it has a row for an operator the query names
    SLACK: 3, // words: how much further apart than in a pasted message its words may be on a page
    ENTRY_BOOST: 2, // a page counts 1 + this more when an entry of the error atlas holds the query
    ENTRY_WORDS: 4, // ... whose heading has this many of the query's words in a row (a pasted message)
    MESSAGE_WORDS: 6, // Latin words in a row: a message pasted into a Chinese sentence, without its class
    LONGEST_WORD: 6, // Han characters: the longest word a run of them is split into
    CODE_PIECES: 6, // pieces between spaces: the longest fragment of quoted code looked up in a row
    // Pagefind's BM25 (its `ranking` option): a long page's occurrences are discounted in full
    // (pageLength 1, Pagefind's default 0.75), so that a long page with many scattered
    // occurrences of a word (corrections, questions) does not outrank the page that holds the
    // whole query in one passage. Measured on the tuning half of tests/search_queries.tsv: 95 %
    // against 94 % with the defaults; a faster saturation (termSaturation 0.5 or 0.8, default
    // 1.4) or less weight to frequency (termFrequency 0.5) did not help.
    pagefind: Object.freeze({ pageLength: 1.0 }),
  });

  /* Words that say how a learner asks, not what about: dropped from the query. English: the
     function words of a question and a learner's own (my, doesn't); Chinese: the question words
     and particles. A word of the site's topic is never one of them (copy, share, 复制, 区别). */
  const ASKING = new Set(
    (
      "vs versus a an the of to in on at by for from with and or but if is are was were be been " +
      "am do does did doesn don didn isn aren wasn weren won can cannot couldn shouldn wouldn " +
      "should would could will shall may might must it its it's this that these those there here " +
      "i me my mine we our you your he she they them their what which who whom whose why how when " +
      "where whether so than then too very just also only about into over after before while " +
      "get got getting use using used want need please help anyone someone thanks hi ve ll re " +
      // and the words that ask for an explanation of a thing (slicing behaviour, explain the
      // difference, the intuition behind): the thing is the query
      "behaviour behavior behave behaves explain explained explanation intuition understand understanding " +
      "的 地 得 和 与 及 跟 同 吗 呢 吧 啊 呀 嘛 了 着 过 是 也 都 就 还 又 在 有 被 把 让 给 对 " +
      "从 向 到 之 其 这 那 个 些 么 会 要 能 可 该 我 你 他 她 它 们 请 或 " +
      // where and when, after the word they place: 训练时, 修改后, no_grad() 下, GPU 上
      "时 后 下 中 里 上 前 内 当 " +
      "如何 怎么 怎样 怎么办 怎么样 为什么 为何 什么 是否 是不是 会不会 能不能 要不要 有没有 " +
      "可不可以 哪个 哪些 哪 好 意思 请问 求助 求 报错 解决 问题 一下 时候 的话 还是 或者 一样 " +
      // the things compared, counted: 两者的区别, 三者的区别 (the words that name them stay)
      "两者 二者 三者 " +
      // the words of a Chinese blog's or forum's title around its subject: 详解, 用法, 原理,
      // 是什么原因, 有什么作用, 几种方法 (on a page or two of the site, they would outweigh it)
      "详解 总结 用法 理解 介绍 解析 浅谈 深入 彻底 搞懂 一文 含义 原理 具体 到底 究竟 干什么 " +
      "有什么用 为啥 咋 怎么回事 大佬 小白 新手 求解 提示 作用 原因 方法 几种 常见 遇到"
    ).split(" "),
  );

  const HAN = /\p{Script=Han}/u;

  /* The runs of a query that are looked up, in order: {text, han}. Latin words are letters,
     digits and underscores (Pagefind's own words), lower case; one-letter Latin words and numbers
     are dropped (x is on every page; a pasted message's sizes and versions are the learner's,
     not the site's); `splitUnderscore`: split requires_grad into requires and grad, as Pagefind's
     Chinese segmenter does when it indexes (each piece `named`: a part of a name, never a word
     that says how one asks: the from of from_numpy). A Latin word written against Han characters
     is `named` too: a Chinese sentence names a method that way (模型to函数: the method to), it
     does not ask in English. */
  function runs(query, splitUnderscore = false) {
    const found = [];
    // a file name (model.py, train.ipynb) is where the learner's code is, not what it asks
    const asked = query.replace(/[\p{L}\p{N}_-]+\.(?:py|ipynb)\b/gu, " ");
    // a method the query calls (.to(device), .cpu()) is a name, whatever else the word says
    const called = new Set((asked.match(/\.[\p{L}_][\p{L}\p{N}_]*(?=\()/gu) ?? []).map((m) => m.slice(1).toLocaleLowerCase()));
    for (const token of asked.toLocaleLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) {
      const mixed = HAN.test(token) && /[^\p{Script=Han}]/u.test(token);
      for (const part of token.match(/\p{Script=Han}+|[^\p{Script=Han}]+/gu)) {
        if (HAN.test(part)) found.push({ text: part, han: true });
        else {
          const pieces = splitUnderscore ? part.split("_") : [part];
          for (const piece of pieces) {
            if (piece.length > 1 && !/^\p{N}+$/u.test(piece)) found.push({ text: piece, han: false, named: mixed || pieces.length > 1 || called.has(piece) });
          }
        }
      }
    }
    return found;
  }

  /* A Chinese query's English term of several words, written with spaces or hyphens (Leaf
     Tensor, in-place), as the one word `isTerm` knows it by (leaftensor, inplace): the English of
     a term the pages write in Chinese (docs/terms.tsv), looked up as that Chinese. The longest
     run of words that is a term is joined first; other words are left as they were. */
  function joinTerms(query, isTerm) {
    return query.replace(/[A-Za-z]+(?:[- ][A-Za-z]+)+/g, (run) => {
      const words = run.split(/[- ]/);
      const out = [];
      for (let i = 0; i < words.length; ) {
        let n = words.length - i;
        while (n > 1 && !isTerm(words.slice(i, i + n).join("").toLocaleLowerCase())) n--;
        out.push(n > 1 ? words.slice(i, i + n).join("").toLocaleLowerCase() : words[i]);
        i += n;
      }
      return out.join(" ");
    });
  }

  /* The parts of a Latin word (lower case) that joins several, as the query writes it: at
     underscores, where a capital follows a small letter (UnbindBackward0, FloatTensor) and
     between letters and digits; parts of two letters or more. */
  function partsOf(word, query = word) {
    const written = (query.match(/[\p{L}\p{N}_]+/gu) ?? []).find((w) => w.toLocaleLowerCase() === word) ?? word;
    return written
      .split(/_+|(?<=\p{Ll})(?=\p{Lu})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u)
      .map((part) => part.toLocaleLowerCase())
      .filter((part) => part.length > 1 && !/^\p{N}+$/u.test(part) && part !== word);
  }

  /* The dotted names of a query (torch.tensor, copy.copy, nn.functional.pad), lower case, as
     lists of their words; a one-letter name (x.data's x) is left out of them. */
  function dottedNames(query) {
    const names = [];
    for (const token of query.toLocaleLowerCase().match(/[\p{L}\p{N}_]+(?:\.[\p{L}\p{N}_]+)+/gu) ?? []) {
      const words = token.split(".").filter((w) => w.length > 1 && !/^\p{N}+$/u.test(w));
      if (words.length > 1 && !names.some((n) => n.join(".") === words.join("."))) names.push(words);
    }
    return names;
  }

  /* The fragments of code a query quotes, each as its pieces between spaces, longest first:
     every run of two to CODE_PIECES pieces, within a stretch of pieces that are code (a name
     followed by a bracket, a closing bracket, an assignment), that holds a bracket (one piece,
     y[0], is any reader's variable: it would single out the page that happens to print it). A reader
     who pastes `x[[0, 1]][0] = 5` or `y[0] = 100` asks about the page that prints that code,
     which Pagefind finds as the fragment in a row. */
  function codeSpans(query) {
    const pieces = query.split(/\s+/).filter(Boolean);
    const code = (piece) => /[\p{L}\p{N}_\])][[(]|^[\p{N},]*[\])]|^(?:\*\*|\/\/|[-+*\/%@&|^])?=$/u.test(piece);
    const found = [];
    for (let i = 0; i < pieces.length; ) {
      if (!code(pieces[i])) {
        i++;
        continue;
      }
      let end = i;
      while (end < pieces.length && (code(pieces[end]) || /^[\p{N}.,]+$/u.test(pieces[end]))) end++;
      const stretch = pieces.slice(i, end);
      for (let n = Math.min(stretch.length, RANKING.CODE_PIECES); n >= 2; n--) {
        for (let at = 0; at + n <= stretch.length; at++) {
          const fragment = stretch.slice(at, at + n).join(" ");
          if (/[[(]/.test(fragment) && !found.includes(fragment)) found.push(fragment);
        }
      }
      i = end;
    }
    return found;
  }

  /* Whether a line of code writes into a tensor in place: an augmented assignment (w -= lr *
     w.grad, x += y) or an assignment into an index or slice (w[0] = 1, x[:, 1] *= 2). Not a
     comparison (==, <=), not a keyword argument (requires_grad=True), and not a Python number
     added up (total += float(loss), running_loss += loss.item(): the logging of values). */
  const AUGMENTED = String.raw`(?:\*\*|\/\/|<<|>>|[-+*\/%@&|^])=(?!=)`;
  const WRITES = new RegExp(String.raw`(?:[\p{L}\p{N}_)\]]\s*${AUGMENTED})|(?:\][ \t]*=(?!=))`, "u");
  const ADDS_A_NUMBER = new RegExp(String.raw`${AUGMENTED}\s*(?:float|int)\(|${AUGMENTED}.*\.(?:item|tolist)\(\)\s*$`, "u");
  function writesInPlace(query) {
    return WRITES.test(query) && !ADDS_A_NUMBER.test(query);
  }

  /* Whether an indexed word of three characters or more is a word of the index with an asking
     character stuck to its start or end (模型或, 内存吗, 验证的, 的区别: the index's own
     segmenter joined them on some page): the word and the character are read apart. */
  function particleJoined(word, known) {
    if (word.length < 3) return false;
    return (ASKING.has(word[0]) && known(word.slice(1)) > 0) || (ASKING.has(word.at(-1)) && known(word.slice(0, -1)) > 0);
  }

  /* A run of Han characters split into words, `known(word)` telling whether the index holds a
     word (a count of pages, or 0): the split that covers the most characters with words of two
     or more, then with the fewest words, then with the most common words (how a reader reads
     it, and jieba, which segmented the pages). An indexed word that is another word with an
     asking character stuck to it (particleJoined) is not one of them. Each character that is no
     such word stays a word of one character. */
  function segment(run, known, longest = RANKING.LONGEST_WORD) {
    const n = run.length;
    // best[i]: the best split of run.slice(i) as [covered, -words, commonness, words]
    const best = new Array(n + 1);
    best[n] = [0, 0, 0, []];
    const better = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
    for (let i = n - 1; i >= 0; i--) {
      const rest = best[i + 1];
      let choice = [rest[0], rest[1] - 1, rest[2], [run[i], ...rest[3]]];
      for (let end = i + 2; end <= Math.min(n, i + longest); end++) {
        const word = run.slice(i, end);
        const pages = known(word);
        if (!pages || particleJoined(word, known)) continue;
        const after = best[end];
        const option = [after[0] + word.length, after[1] - 1, after[2] + Math.log(1 + pages), [word, ...after[3]]];
        if (better(option, choice) > 0) choice = option;
      }
      best[i] = choice;
    }
    return best[0][3];
  }

  /* The words of a Han run, after `segment`, as the query's terms: asking words dropped, and a
     lone character joined to the word next to it when `together(a, b)` (the site holds the two
     in a row): [{word, parts}] where parts are the index's words it is made of. A lone character
     that joins nothing is dropped: alone it says little (原, 改). Two or more such characters in a
     row are a word the index does not hold (不足 in 内存不足): a term that no page holds, which
     weighs most, as an English word that no page holds does; unless it is an asking word (搞懂). */
  function hanTerms(words, together) {
    const terms = [];
    let loose = "";
    const flush = () => {
      if (loose.length > 1 && !ASKING.has(loose)) terms.push({ word: loose, parts: [loose] });
      loose = "";
    };
    for (let i = 0; i < words.length; i++) {
      const word = words[i];
      if (ASKING.has(word)) {
        flush();
        continue;
      }
      if (word.length > 1) {
        flush();
        terms.push({ word, parts: [word] });
        continue;
      }
      const next = words[i + 1];
      const previous = terms.at(-1);
      if (next && next.length > 1 && !ASKING.has(next) && together(word, next)) {
        flush();
        terms.push({ word: word + next, parts: [word, next] });
        i++;
      } else if (previous && previous.parts.length === 1 && i > 0 && words[i - 1] === previous.word && together(previous.word, word)) {
        previous.word += word;
        previous.parts.push(word);
      } else if (words.length === 1) {
        terms.push({ word, parts: [word] });
      } else {
        loose += word;
      }
    }
    flush();
    return terms;
  }

  /* A word's weight: how rare it is on the site, from the number of pages that hold it among
     `pages`; a word on no page weighs most. Smoothed so that a word on every page still counts
     (ln 2, a third of one on a single page): every page of this site is about detach, clone and
     tensors, and a query made of them ("does detach copy the data") must still find the page
     that says them most. Pagefind's own weight (its BM25's inverse document frequency) would
     give those words nothing. */
  function weightOf(found, pages) {
    return Math.log(1 + (pages + 1) / (found + 0.5));
  }

  /* Pagefind's inverse document frequency, which its BM25 score of a page for a word holds. */
  function pagefindWeight(found, pages) {
    return Math.log((pages - found + 0.5) / (found + 0.5) + 1);
  }

  /* The most weight of distinct words that one passage of a page holds: `at` is [location, word,
     weight] of each match; a passage is `window` words long. */
  function passage(at, window = RANKING.WINDOW) {
    const sorted = [...at].sort((a, b) => a[0] - b[0]);
    let best = 0;
    for (let i = 0; i < sorted.length; i++) {
      const seen = new Map();
      for (let j = i; j < sorted.length && sorted[j][0] - sorted[i][0] < window; j++) {
        seen.set(sorted[j][1], sorted[j][2]);
      }
      best = Math.max(best, [...seen.values()].reduce((sum, w) => sum + w, 0));
    }
    return best;
  }

  /* The window a query's words must fall in to count as one passage: WINDOW words, or for a
     long query (a pasted message) WINDOW_PER_WORD times as many words as it has, the words that
     say how one asks included (a page that prints the message holds it in about as many). */
  function windowFor(query) {
    const latin = (query.match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => !HAN.test(w)).length;
    const han = (query.match(/\p{Script=Han}/gu) ?? []).length / 2;
    return Math.max(RANKING.WINDOW, Math.round(RANKING.WINDOW_PER_WORD * (latin + han)));
  }

  /* Whether a query is a pasted message: it names a class of error or warning, a colon after it
     (RuntimeError:, UserWarning:, CUDA error:). */
  function isMessage(query) {
    return /(?:error|warning|exception)\s*:/iu.test(query);
  }

  /* The pasted message inside a query: from the class of error or warning (RuntimeError:) to
     the query's last Latin word or digit, the learner's own words around it left out (使用我自己训练
     yolov7 ... 的时候报错 before it, 请问应该怎么解决呢 after it). A message pasted into a Chinese
     sentence without its class is its run of MESSAGE_WORDS Latin words or more (我训练时出现了
     element 0 of tensors does not require grad ...，请问...). Else the whole query. */
  function messageSpan(query) {
    const start = query.search(/[A-Za-z0-9_.]*(?:error|warning|exception)\s*:/iu);
    if (start < 0 && HAN.test(query)) {
      const latin = (query.match(/[A-Za-z0-9_][A-Za-z0-9_.,;:'"()\[\] -]*[A-Za-z0-9_)\]]/gu) ?? [])
        .filter((run) => (run.match(/[A-Za-z_][A-Za-z0-9_]*/gu) ?? []).length >= RANKING.MESSAGE_WORDS)
        .sort((a, b) => b.length - a.length);
      return latin[0] ?? query;
    }
    if (start < 0) return query;
    const rest = query.slice(start);
    const last = [...rest.matchAll(/[A-Za-z0-9]/gu)].at(-1);
    return last ? rest.slice(0, last.index + 1) : rest;
  }

  /* Whether a term of the query is in `text`: a Latin word as one of its words (or a piece of
     one between underscores), a Han word anywhere in it. */
  function inText(text, word) {
    if (HAN.test(word)) return text.includes(word);
    const tokens = text.toLocaleLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
    return tokens.some((token) => token === word || token.split("_").includes(word));
  }

  /* Where each word of a query stands in it: the place of the first of the query's words
     (letters, digits, underscores; numbers and one letter included) that is the word, holds it
     between underscores, or, for a Han word, holds it. */
  function positions(query, words) {
    const tokens = query.toLocaleLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
    const found = new Map();
    for (const word of words) {
      const place = tokens.findIndex(
        (token) => token === word || token.split("_").includes(word) || (HAN.test(word) && token.includes(word)),
      );
      if (place >= 0) found.set(word, place);
    }
    return found;
  }

  /* The most weight of distinct words of a pasted message that a page holds in the message's
     order, each at most SLACK words further after the one before than the message has it (a
     page that prints the message holds its words so; the learner's own sizes and names between
     them are passed over), and how many words that is. `at`: the page's matches as [location,
     word, weight]; `place`: each word's place in the message (positions). */
  function inOrder(at, place, slack = RANKING.SLACK) {
    const sorted = at.filter(([, word]) => place.has(word)).sort((a, b) => a[0] - b[0]);
    const reach = Math.max(0, ...place.values()) + slack;
    const chain = [];
    let most = [0, 0];
    for (let k = 0; k < sorted.length; k++) {
      const [location, word, weight] = sorted[k];
      let before = [0, 0];
      for (let j = k - 1; j >= 0 && location - sorted[j][0] <= reach; j--) {
        const gap = place.get(word) - place.get(sorted[j][1]);
        if (gap > 0 && location - sorted[j][0] <= gap + slack && chain[j][0] > before[0]) before = chain[j];
      }
      chain[k] = [before[0] + weight, before[1] + 1];
      if (chain[k][0] > most[0]) most = chain[k];
    }
    return { weight: most[0], words: most[1] };
  }

  /* The most words in a row that two texts have in common (words of letters, digits and
     underscores, lower case, numbers left out). */
  function sharedRun(a, b) {
    const words = (text) => (text.toLocaleLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => !/^\p{N}+$/u.test(w));
    const [x, y] = [words(a), words(b)];
    let longest = 0;
    let row = new Array(y.length + 1).fill(0);
    for (let i = 0; i < x.length; i++) {
      const next = new Array(y.length + 1).fill(0);
      for (let j = 0; j < y.length; j++) {
        if (x[i] === y[j]) longest = Math.max(longest, (next[j + 1] = row[j] + 1));
      }
      row = next;
    }
    return longest;
  }

  /* The units of a page that `isUnit` picks among Pagefind's anchors, each with the query's
     word locations (`at`) that fall in it: a unit runs from its anchor to the next heading or
     unit. */
  function unitsOf(anchors, at, isUnit) {
    const bounds = (anchors ?? []).filter((a) => /^h[1-6]$/.test(a.element) || isUnit(a)).sort((a, b) => a.location - b.location);
    return bounds.flatMap((anchor, i) => {
      if (!isUnit(anchor)) return [];
      const end = bounds[i + 1]?.location ?? Infinity;
      return [{ anchor, at: at.filter(([location]) => location >= anchor.location && location < end) }];
    });
  }

  /* The entry of the error atlas on a page that a pasted message finds (a heading anchored
     err-<id>, its section up to the next heading): of the entries whose heading, the message's
     first sentence, has ENTRY_WORDS of the query's words in a row, the one that holds the most
     of the query's words in its order (inOrder): {id, weight, words}, or null. */
  function entryFor(anchors, at, place, query) {
    const entry = (a) => /^h[1-6]$/.test(a.element) && isEntry(`#${a.id}`);
    let best = null;
    for (const unit of unitsOf(anchors, at, entry)) {
      if (sharedRun(unit.anchor.text ?? "", query) < RANKING.ENTRY_WORDS) continue;
      const held = inOrder(unit.at, place);
      if (!best || held.weight > best.weight) best = { id: unit.anchor.id, ...held };
    }
    return best;
  }

  /* The weight of the query's words that the unit of a reference page holding most of them holds
     (each word once): an entry of the error atlas (err-), a term of the glossary (term-), a row
     of the operator reference (op-), a claim (claim-). null for a page with no such unit. */
  function bestUnit(anchors, at) {
    const unit = (a) => /^(h[1-6]|dt|tr|div)$/.test(a.element) && /^(err|term|op|claim)-/.test(a.id ?? "");
    let best = null;
    for (const { at: held } of unitsOf(anchors, at, unit)) {
      const weight = [...new Map(held.map(([, word, w]) => [word, w])).values()].reduce((sum, w) => sum + w, 0);
      if (best === null || weight > best) best = weight;
    }
    return best;
  }

  /* Whether a heading holds a word: a Latin word as the start of one of its words, a Han word
     anywhere in it. */
  function holds(title, term) {
    const lower = title.toLocaleLowerCase();
    if (HAN.test(term)) return lower.includes(term);
    return (lower.match(/[\p{L}\p{N}_]+/gu) ?? []).some((token) => token.startsWith(term));
  }

  /* An English word without its plural or third-person ending (copies: copy, losses: loss,
     uses: use), as Pagefind's stemmer reads the pages: the words a heading holds, for the
     section a result links to ("It copies .grad too" holds copy). */
  function singular(word) {
    return word.replace(/ies$/u, "y").replace(/(ss|sh|ch|x)es$/u, "$1").replace(/([^s])s$/u, "$1");
  }

  /* Whether a section's heading holds a word: as holds(), its words also read in the singular. */
  function headingHolds(title, term) {
    if (holds(title, term)) return true;
    if (HAN.test(term)) return false;
    const tokens = title.toLocaleLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
    return tokens.some((token) => singular(token).startsWith(singular(term)));
  }

  function holdsEvery(title, terms) {
    return terms.every((term) => holds(title, term));
  }

  /* The pages for a query, ranked, from each term's Pagefind results:
     terms: [{word, parts, hits: [{id, score, words: [locations], lookups}], extra}] (no hits:
     the site never uses it; parts: the index's words it was looked up as, or a hit's lookups
     where that page holds it otherwise; extra: it adds to a page's score only, not to the
     query's weight);
     pages: how many pages the index holds.
     Returns {ranked: [{id, score, rank, weight, words, lookups, at, hit, match}], matched, matches,
     missing}: `matched` whether the first ranked pages are matches (they hold SHARE of the whole
     query's weight) or only the closest, `matches` how many are (fewer than FEWEST are followed
     by the closest others), `missing` the words no page holds. */
  function rankPages(terms, pages, query = "") {
    const byPage = new Map();
    let total = 0;
    let present = 0;
    const missing = [];
    for (const term of terms) {
      const weight = weightOf(term.hits.length, pages);
      const lookup = term.parts ?? [term.word];
      const counts = term.extra ? 0 : weight;
      if (!term.extra) total += weight;
      if (!term.hits.length) {
        missing.push(term.word);
        continue;
      }
      if (!term.extra) present += weight;
      // Pagefind's score of a page for the word, with the word's weight here for Pagefind's
      const rescale = weight / pagefindWeight(term.hits.length, pages);
      for (const hit of term.hits) {
        const page = byPage.get(hit.id) ?? { id: hit.id, score: 0, weight: 0, words: [], lookups: [], at: [], hit };
        page.score += hit.score * rescale;
        page.weight += counts;
        page.words.push(term.word);
        page.lookups.push(...(hit.lookups ?? lookup));
        if (!term.extra) for (const location of hit.words ?? []) page.at.push([location, term.word, weight]);
        byPage.set(hit.id, page);
      }
    }
    const window = windowFor(query);
    // a pasted message is held where its words come in its order, not scattered over a long page
    const message = isMessage(query);
    const place = message ? positions(query, terms.filter((t) => !t.extra).map((t) => t.word)) : null;
    for (const page of byPage.values()) {
      page.passage = present ? passage(page.at, window) / present : 0;
      page.rank = page.score * (1 + RANKING.PASSAGE_BOOST * page.passage);
      page.held = message ? inOrder(page.at, place).weight : page.weight;
    }
    const all = [...byPage.values()].sort(byRank);
    for (const page of all) page.match = total > 0 && page.held >= RANKING.SHARE * total;
    const matches = all.filter((page) => page.match);
    if (!matches.length) return { ranked: all, matched: false, matches: 0, missing };
    // Words a query has in common with the site but that no page says together (BCE, loss,
    // cross and entropy, each on some page) are no match anywhere: a query of three words or more
    // (not a pasted message, held in its order above) has matches only where some page holds
    // all the words the site has within one passage. Otherwise the same pages are listed, in
    // the same order, as the closest.
    const words = terms.filter((term) => !term.extra).length;
    if (!message && words >= 3 && !matches.some((page) => page.passage >= 1)) {
      const ranked = [...matches, ...all.filter((page) => !page.match)];
      for (const page of matches) page.match = false;
      return { ranked, matched: false, matches: 0, missing };
    }
    // one or two matches (a word that one page holds by chance can weigh most of the query: 安全,
    // 不够) are followed by the closest other pages, as a query with none is
    const ranked = matches.length < RANKING.FEWEST ? [...matches, ...all.filter((page) => !page.match)] : matches;
    return { ranked, matched: true, matches: matches.length, missing };
  }

  function byRank(a, b) {
    return b.rank - a.rank || (a.id < b.id ? -1 : 1);
  }

  /* The row of a page's table that is about an operator the query names, as the reference
     marks one (<tr id="op-permute">, or an alias in its row: <span id="op-swapaxes">): "does
     x.permute() copy" and "torch.permute" name permute, "nn.functional.pad" its own row. The
     longest name with a row wins. */
  function rowFor(anchors, query) {
    const marks = (a) => (a.element === "tr" || a.element === "span") && a.id.startsWith("op-");
    const rows = new Map((anchors ?? []).filter(marks).map((a) => [a.id, a]));
    if (!rows.size) return null;
    for (const token of query.toLocaleLowerCase().match(/[\p{L}\p{N}_.]+/gu) ?? []) {
      const parts = token.split(".").filter(Boolean);
      for (let i = 0; i < parts.length; i++) {
        const row = rows.get(`op-${parts.slice(i).join(".")}`);
        if (row) return row;
      }
    }
    return null;
  }

  /* The Latin words of a heading that the query does not have (lower case, two letters or
     more, numbers left out): how much a heading says besides the query. */
  function besides(title, query) {
    const words = (text) => (text.toLocaleLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => !HAN.test(w));
    const asked = new Set(words(query));
    return words(title).filter((w) => w.length > 1 && !/^\p{N}+$/u.test(w) && !asked.has(w)).length;
  }

  /* Whether a section (its address) is an entry of the error atlas (errors.md, drawn from
     generators/errors.py: <section id="err-backward-twice">, its heading the message). */
  function isEntry(url) {
    return /#err-[\w-]+$/u.test(url ?? "");
  }

  /* The section of a page that answers: of its sections that hold matches (Pagefind's
     sub-results, each with the locations of the matches in it), the one where the query's words
     come together: the most weight of distinct words in its heading and its text, then in its
     heading, then the heading that says the least besides the query (of two error messages that
     hold a pasted one, the one that is that message), then the most weight in one passage of
     it, then the most matches; `at` is the page's matches as [location, word, weight].
     Not simply the section with the most matches, which on a long page is often another. */
  function bestSection(sections, at, window = RANKING.WINDOW, query = "") {
    const weights = new Map(at.map(([, word, weight]) => [word, weight]));
    const sum = (map) => [...map.values()].reduce((total, w) => total + w, 0);
    let best = null;
    for (const section of sections) {
      const mine = new Set(section.locations ?? []);
      const inside = at.filter(([location]) => mine.has(location));
      const held = new Map(inside.map(([, word, weight]) => [word, weight]));
      const heading = new Map([...weights].filter(([word]) => headingHolds(section.title ?? "", word)));
      for (const [word, weight] of heading) held.set(word, weight);
      const key = [sum(held), sum(heading), -besides(section.title ?? "", query), passage(inside, window), inside.length];
      const order = best ? key.map((k, i) => k - best.key[i]).find((d) => d !== 0) ?? 0 : 1;
      if (order > 0) best = { section, key };
    }
    return best?.section ?? null;
  }

  /* The first pages again, with what their fragments tell (page.data: Pagefind's data() of a
     result): a page counts up to 1 + TITLE_BOOST times more as its title holds more of the
     query's weight, 1 + HEADING_BOOST more when a heading of it holds every word of the query (a
     question asked as the site asks it, "does clone copy grad" for "clone() does not copy
     .grad"), and 1 + ROW_BOOST more when it has a row for an operator the query names (the
     reference's). `terms`: [{word, hits}]; returns the pages, best first. */
  function boost(pages, terms, query, count) {
    const present = terms.filter((t) => t.hits.length);
    const weightOfTerm = new Map(present.map((t) => [t.word, weightOf(t.hits.length, count)]));
    const total = [...weightOfTerm.values()].reduce((sum, w) => sum + w, 0);
    const own = terms.filter((t) => !t.extra);
    // an atlas entry holds a pasted message when it holds enough of the message's own weight
    const span = messageSpan(query);
    const message = span === query ? own : own.filter((t) => inText(span, t.word));
    const whole = message.reduce((sum, t) => sum + weightOf(t.hits.length, count), 0);
    const place = positions(span, message.map((t) => t.word)); // (the message's order, not the learner's)
    // a heading holds a dotted name when it holds its words
    const words = [...new Set(present.flatMap((t) => (t.latin && t.parts ? t.parts : [t.word])))];
    for (const page of pages) {
      const data = page.data ?? {};
      const title = data.meta?.title ?? "";
      const inTitle = present
        .filter((t) => (t.latin && t.parts ? t.parts : [t.word]).every((word) => holds(title, word)))
        .reduce((sum, t) => sum + weightOfTerm.get(t.word), 0);
      page.rank *= 1 + RANKING.TITLE_BOOST * (total ? inTitle / total : 0);
      const headings = [title, ...(data.sub_results ?? []).map((s) => s.title ?? "")];
      if (words.length > 1 && headings.some((heading) => holdsEvery(heading, words))) page.rank *= 1 + RANKING.HEADING_BOOST;
      if (rowFor(data.anchors, query)) page.rank *= 1 + RANKING.ROW_BOOST;
      // a reference page (the atlas, the glossary, the operator reference, the claims) is many
      // short units on one page: it counts for what its best unit holds
      const held = bestUnit(data.anchors, page.at ?? []);
      if (held !== null && page.weight > 0) page.rank *= held / page.weight;
      const entry = entryFor(data.anchors, page.at ?? [], place, query);
      if (entry && entry.weight >= RANKING.SHARE * whole) {
        page.rank *= 1 + RANKING.ENTRY_BOOST;
      }
    }
    return [...pages].sort(byRank);
  }

  /* The row's own words, from the page's indexed text (escaped), its operator's name marked.
     Pagefind gives the row's place as a count of words, which in Chinese text (segmented into
     words without spaces) is not a count of spaces: the row is the occurrence of its name, as a
     name of its own, nearest to that place. */
  function rowExcerpt(data, row, name) {
    const text = data.content;
    const near = (text.length * row.location) / Math.max(1, data.word_count);
    const own = (i) =>
      !/[\p{L}\p{N}_.:]/u.test(text[i - 1] ?? " ") && !/[\p{L}\p{N}_.]/u.test(text[i + name.length] ?? " ");
    let best = -1;
    for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
      if (own(i) && (best < 0 || Math.abs(i - near) < Math.abs(best - near))) best = i;
    }
    if (best < 0) return data.excerpt;
    const escape = (part) =>
      part.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
    const after = text.slice(best + name.length, best + name.length + 160);
    return `<mark>${escape(name)}</mark>${escape(after.slice(0, after.lastIndexOf(" ") + 1 || after.length))}…`;
  }

  return {
    RANKING,
    ASKING,
    runs,
    joinTerms,
    partsOf,
    dottedNames,
    codeSpans,
    segment,
    hanTerms,
    weightOf,
    pagefindWeight,
    bestUnit,
    passage,
    windowFor,
    isMessage,
    writesInPlace,
    positions,
    inOrder,
    sharedRun,
    entryFor,
    holds,
    singular,
    headingHolds,
    holdsEvery,
    rankPages,
    byRank,
    rowFor,
    besides,
    isEntry,
    messageSpan,
    inText,
    bestSection,
    boost,
    rowExcerpt,
  };
})();

if (typeof module === "object" && module.exports) module.exports = SiteSearchRanking;

/* The search as the page runs it: Pagefind loaded, each word looked up, the pages ranked and
   described. */
const SiteSearch =
  typeof document === "undefined"
    ? null
    : (() => {
        const R = SiteSearchRanking;
        const { RANKING } = R;
        const html = document.documentElement;
        const root = html.dataset.content_root ?? "./";
        const bundle = new URL(`${root}pagefind/`, document.baseURI).href;
        const CHINESE = html.lang.toLocaleLowerCase().startsWith("zh");
        // The site's word for an in-place write (docs/terms.tsv: in-place operation, 原地操作).
        const IN_PLACE = { en: "inplace", zh: "原地" };
        let loading = null;

        /* The words a reader may use where the site writes another (docs/terms.tsv: the
           variants its Chinese pages avoid), from the search page (site_search.py). */
        const SYNONYMS = (() => {
          try {
            return JSON.parse(document.getElementById("search-results")?.dataset.synonyms ?? "{}");
          } catch {
            return {};
          }
        })();

        /* The English of the site's terms, each with the Chinese its pages write (view: 视图),
           from the search page (site_search.py): a Chinese query's Latin word that is one of them
           (or its plural) is also looked up as the Chinese word. */
        const ENGLISH = (() => {
          try {
            return JSON.parse(document.getElementById("search-results")?.dataset.english ?? "{}");
          } catch {
            return {};
          }
        })();
        const chineseFor = (word) => (CHINESE ? (ENGLISH[word] ?? ENGLISH[R.singular(word)] ?? []) : []);

        const load = () =>
          (loading ??= (async () => {
            const pagefind = await import(`${bundle}pagefind.js`);
            await pagefind.options({ excerptLength: 28, ranking: { ...RANKING.pagefind } });
            // Pagefind reads the language from <html lang> when it starts, and splits a Chinese
            // query with the browser's segmenter; started as "und", it looks up the words as
            // given (one index for the site: the language picks no other).
            const lang = html.getAttribute("lang");
            if (CHINESE) html.setAttribute("lang", "und");
            let started;
            try {
              started = pagefind.init();
            } finally {
              if (CHINESE) html.setAttribute("lang", lang);
            }
            await started;
            // Every index chunk, loaded before the first search: Pagefind looks for the words that
            // start with a query's word in the chunks loaded so far, so a query would otherwise
            // rank by what was searched before it (site_search.py, index_chunks).
            const chunks = await (await fetch(`${bundle}pagefind-chunks.json`)).json();
            await Promise.all(chunks.words.map((word) => pagefind.preload(word)));
            const entry = await (await fetch(`${bundle}pagefind-entry.json`)).json();
            const pages = Object.values(entry.languages).reduce((n, l) => n + l.page_count, 0);
            return { pagefind, pages, cache: new Map() };
          })());

        async function results(term) {
          const { pagefind, cache } = await load();
          // each result's data() is loaded once (Pagefind's own asks its worker again each time)
          const once = (hit) => {
            const data = hit.data;
            let loaded;
            return { ...hit, data: () => (loaded ??= data.call(hit)) };
          };
          if (!cache.has(term)) cache.set(term, pagefind.search(term).then((found) => (found ? found.results.map(once) : [])));
          return cache.get(term);
        }

        /* The pages that hold `word` itself (after Pagefind's stemming), not a longer word that
           starts with it nor, when there is none, the longest word that it starts with (Pagefind's
           fallback, which would find "w" for "watchdog"); or words in a row: "原 张量". */
        const exactly = (words) => results(`"${words}"`);

        /* The pages for a word of the query, ranked by Pagefind's BM25: those of the words that
           start with it. Where no indexed word is the word itself, the first page's excerpt tells
           whether Pagefind matched a longer word (sourceTensor in sourceTensor.detach()) or fell
           back to a shorter one, which does not count. A name that ends in an underscore (set_,
           detach_: PyTorch's in-place methods) is a name in full: only the pages that hold it
           count (x.set_(y) is not set_grad_enabled). */
        async function hitsOf(word) {
          const hits = await prefixHits(word);
          // Pagefind indexes a name inside a dotted call (optimizer.zero_grad(),
          // x.untyped_storage()) as the compound (optimizerzero_grad) and each of its pieces, not as
          // the name: the pages that hold its pieces in a row hold it too.
          const pieces = word.split("_").filter(Boolean);
          if (CHINESE || pieces.length < 2 || word.endsWith("_")) return hits;
          const inside = (await exactly(pieces.join(" "))).map((hit) => ({ ...hit, lookups: pieces }));
          return merge(hits, inside);
        }

        async function prefixHits(word) {
          const hits = await results(word);
          if (word.endsWith("_")) {
            const own = new Set((await exactly(word)).map((hit) => hit.id));
            return hits.filter((hit) => own.has(hit.id));
          }
          if (!hits.length || (await exactly(word)).length) return hits;
          const marked = ((await hits[0].data()).excerpt.match(/<mark>(.*?)<\/mark>/) ?? ["", ""])[1];
          return marked.toLocaleLowerCase().replace(/[^\p{L}\p{N}_]/gu, "").startsWith(word) ? hits : [];
        }

        /* Two lists of a word's pages as one: a page in both keeps its better hit. */
        function merge(hits, more) {
          const merged = new Map(hits.map((hit) => [hit.id, hit]));
          for (const hit of more) {
            const mine = merged.get(hit.id);
            merged.set(hit.id, mine && mine.score >= hit.score ? mine : hit);
          }
          return [...merged.values()];
        }

        /* A run of Han characters split into the index's words (segment): every piece of it
           that could be a word looked up at once, a reader's word the site avoids counting as
           one. */
        async function split(run) {
          const pieces = new Set(Object.keys(SYNONYMS).filter((w) => run.includes(w)));
          for (let i = 0; i < run.length; i++) {
            for (let end = i + 2; end <= Math.min(run.length, i + RANKING.LONGEST_WORD); end++) {
              pieces.add(run.slice(i, end));
            }
          }
          const counts = new Map();
          await Promise.all(
            [...pieces].map(async (piece) => counts.set(piece, SYNONYMS[piece] ? 1 : (await exactly(piece)).length)),
          );
          return R.segment(run, (w) => counts.get(w) ?? 0);
        }

        /* The pages of a Chinese word, ranked: only where the index holds the word itself. */
        const wordHits = async (word) => ((await exactly(word)).length ? results(word) : []);

        /* The pages that hold `words` in a row, each scored as Pagefind's search scores the words
           (its BM25): its search for the words as a phrase gives every page the same score, which
           would leave their order to chance (a 深拷贝 the index holds as 深 and 拷贝). */
        async function inRow(words) {
          const phrase = await exactly(words.join(" "));
          if (!phrase.length) return phrase;
          const scores = new Map((await results(words.join(" "))).map((hit) => [hit.id, hit.score]));
          return phrase.map((hit) => (scores.has(hit.id) ? { ...hit, score: scores.get(hit.id) } : hit));
        }

        /* The pages of a Chinese text: of its one word, or of its words in a row. */
        async function textHits(text) {
          const words = await split(text);
          return words.length === 1 ? wordHits(words[0]) : inRow(words);
        }

        /* The pages that hold Chinese words in a row, a reader's word among them also as the
           site's word for it: 非 then 叶子节点 is held where the site writes 非叶子张量. */
        async function phraseHits(parts) {
          let hits = await inRow(parts);
          for (let i = 0; i < parts.length; i++) {
            for (const alternative of SYNONYMS[parts[i]] ?? []) {
              const words = [...parts.slice(0, i), ...(await split(alternative)), ...parts.slice(i + 1)];
              hits = merge(hits, await inRow(words));
            }
          }
          return hits;
        }

        /* The pages of a Chinese term: of its word (or of its parts in a row), with the pages of
           the site's word for it where a reader's word is one the site avoids. */
        async function hanHits(term) {
          const own = term.parts.length > 1 ? await phraseHits(term.parts) : await wordHits(term.word);
          let merged = own;
          for (const alternative of SYNONYMS[term.word] ?? []) merged = merge(merged, await textHits(alternative));
          return merged;
        }

        /* The query's terms: {word, parts, hits}. */
        async function terms(query) {
          const found = [];
          // a Chinese query's words of a term's English (in-place, leaf tensor) are that one word
          // (inplace, looked up as 原地操作 too), not in, a word of asking, and place
          const read = CHINESE ? R.joinTerms(query, (word) => word in ENGLISH) : query;
          for (const run of R.runs(read, CHINESE)) {
            if (!run.han) {
              if (run.named || !R.ASKING.has(run.text)) found.push({ word: run.text, parts: [run.text], latin: true });
              continue;
            }
            const words = await split(run.text);
            const pairs = new Map();
            await Promise.all(
              words.slice(1).map(async (word, i) => {
                const pair = `${words[i]} ${word}`;
                if ((words[i].length === 1) !== (word.length === 1)) pairs.set(pair, (await phraseHits([words[i], word])).length);
              }),
            );
            found.push(...R.hanTerms(words, (a, b) => (pairs.get(`${a} ${b}`) ?? 0) > 0));
          }
          const unique = [...new Map(found.map((t) => [t.word, t])).values()];
          await Promise.all(
            unique.map(async (term) => {
              term.hits = term.latin ? await hitsOf(term.word) : await hanHits(term);
              // a term's English in a Chinese query: the pages of its Chinese word too
              if (term.latin) for (const chinese of chineseFor(term.word)) term.hits = merge(term.hits, await textHits(chinese));
            }),
          );
          // An identifier the site never prints is looked up by its parts too (set_sizes_contiguous:
          // set, sizes, contiguous; UnbindBackward0: unbind, backward), where the site has them:
          // extra terms, which rank the pages that hold them; the identifier stays missing.
          const terms = [];
          for (const term of unique) {
            const parts = term.latin && !term.hits.length ? R.partsOf(term.word, query) : [];
            const found = [];
            for (const part of parts) {
              if (unique.some((t) => t.word === part) || R.ASKING.has(part)) continue;
              const hits = await hitsOf(part);
              if (hits.length) found.push({ word: part, parts: [part], latin: true, hits, extra: true });
            }
            terms.push(term, ...found);
          }
          // A dotted name (torch.tensor, copy.copy) is also looked up as its words in a row: the
          // pages that name it score more than those that say torch and tensor apart (an extra
          // term: it adds to a page's score, not to the query's weight).
          // Pagefind indexes it as one compound word too (tensor.untyped_storage() as
          // tensoruntyped_storage), which is where a page that prints the call holds it.
          for (const name of R.dottedNames(query)) {
            const compound = CHINESE ? [] : await exactly(name.join(""));
            const hits = merge(await exactly(name.join(" ")), compound.map((hit) => ({ ...hit, lookups: [name.join("")] })));
            if (hits.length) terms.push({ word: name.join("."), parts: name, latin: true, hits, extra: true });
          }
          // A fragment of code the query quotes is looked up as Pagefind reads it, in a row (its
          // longest fragment that a page prints), scored by Pagefind for its words: a term of the
          // query, which the pages that print it hold (x[[0, 1]][0] = 5: the page that prints
          // x[[0, 1]][0]). Its names count again in it (y = x.detach(): detach alone and in the
          // fragment), so a page that prints the fragment outranks one that says its words apart.
          for (const fragment of R.codeSpans(query)) {
            const hits = await inRow([fragment]);
            if (!hits.length) continue;
            terms.push({ word: fragment, parts: [fragment], latin: true, hits });
            break;
          }
          // A line of code that writes into a tensor in place (w -= lr * w.grad, w[0] = 1) is
          // about in-place writes, a word it does not say: the pages of the site's word for them
          // rank it (an extra term).
          if (R.writesInPlace(query)) {
            const word = CHINESE ? IN_PLACE.zh : IN_PLACE.en;
            const hits = CHINESE ? await wordHits(word) : await hitsOf(word);
            if (hits.length && !terms.some((t) => t.word === word)) terms.push({ word, parts: [word], latin: !CHINESE, hits, extra: true });
          }
          return [...new Map(terms.map((t) => [t.word, t])).values()];
        }

        /* Pages ranked for `query`: {ranked: [{id, score, words, ...}], matched, missing}. */
        async function rank(query) {
          const { pages } = await load();
          const found = await terms(query);
          const outcome = R.rankPages(found, pages, query);
          // the first pages, whose fragments the results will load anyway, looked at again
          const first = outcome.ranked.slice(0, RANKING.MAX_RESULTS);
          await Promise.all(first.map(async (page) => (page.data = await page.hit.data())));
          const boosted = R.boost(first, found, query, pages);
          // the matches stay before the closest other pages that follow them
          outcome.ranked = [...boosted.filter((p) => p.match), ...boosted.filter((p) => !p.match), ...outcome.ranked.slice(first.length)];
          return outcome;
        }

        /* What to show of a ranked page: its title, address, the section that answers and one
           more, and the excerpt, from a search for the words it holds (so Pagefind marks all of
           them). A page with a row for an operator the query names is shown at that row. */
        async function describe(page, query = "") {
          const same = (await results(page.lookups.join(" "))).find((r) => r.id === page.id);
          const data = same ? await same.data() : (page.data ?? (await page.hit.data()));
          const row = R.rowFor(data.anchors, query);
          const title = data.meta?.title ?? data.url;
          if (row) {
            const url = `${data.url.split("#")[0]}#${row.id}`;
            const name = row.id.slice(3);
            return { title, url, excerpt: data.excerpt, sections: [{ title: name, url, excerpt: R.rowExcerpt(data, row, name) }] };
          }
          // the page's opening (its title's sub-result) is where the result's own link goes: a
          // section link beside it leads into the page, to a section under its title
          const sections = (data.sub_results ?? []).filter((s) => s.url !== data.url && s.anchor?.element !== "h1");
          const window = R.windowFor(query);
          // a pasted message's section is the one that holds the message, not the learner's
          // words around it
          const span = R.messageSpan(query);
          const at = span === query ? page.at : page.at.filter(([, word]) => R.inText(span, word));
          const best = R.bestSection(sections, at, window, query);
          const others = sections
            .filter((s) => s !== best)
            .sort((a, b) => (b.locations?.length ?? 0) - (a.locations?.length ?? 0));
          // an entry of the error atlas is where the result lands, as an operator's row is
          const url = best && R.isEntry(best.url) ? best.url : data.url;
          return { title, url, excerpt: data.excerpt, sections: (best ? [best, ...others] : others).slice(0, 2) };
        }

        return { load, rank, describe, terms, MAX_RESULTS: RANKING.MAX_RESULTS };
      })();

/* The search page: the query from the address (?q=...), in the field and searched. */
if (typeof document !== "undefined") {
  document.addEventListener("DOMContentLoaded", async () => {
    const out = document.getElementById("search-results");
    if (!out) return;
    const field = document.querySelector(".bd-search-container form.bd-search input");
    const query = (new URLSearchParams(location.search).get("q") ?? "").trim();
    if (field) {
      field.value = query;
      field.focus();
    }
    if (!query) return;
    const say = (text) => (typeof Documentation !== "undefined" ? Documentation.gettext(text) : text);
    const heading = document.createElement("h2");
    heading.textContent = say("Search Results");
    const summary = document.createElement("p");
    summary.className = "search-summary";
    summary.textContent = `${say("Searching")}…`;
    out.replaceChildren(heading, summary);
    const outcome = await SiteSearch.rank(query);
    const ranked = outcome.ranked.slice(0, SiteSearch.MAX_RESULTS);
    const list = document.createElement("ul");
    list.className = "search";
    for (const [i, page] of ranked.entries()) {
      if (outcome.matched && i === outcome.matches) {
        // after one or two matches, the closest other pages, under their notice
        const fewer = document.createElement("li");
        fewer.className = "search-fewer";
        fewer.textContent = out.dataset.fewer ?? "";
        list.append(fewer);
      }
      const shown = await SiteSearch.describe(page, query);
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = shown.url;
      link.textContent = shown.title;
      item.append(link);
      for (const section of shown.sections) {
        const part = document.createElement("a");
        part.className = "search-section";
        part.href = section.url;
        part.textContent = section.title;
        item.append(" › ", part);
      }
      const context = document.createElement("p");
      context.className = "context";
      // Pagefind's excerpt: the page's own text, HTML-escaped, the query's words in <mark>.
      context.innerHTML = (shown.sections[0] ?? shown).excerpt;
      item.append(context);
      list.append(item);
    }
    out.append(list);
    if (ranked.length && outcome.matched) {
      summary.textContent = say("Search finished, found ${resultCount} page(s) matching the search query.").replace(
        "${resultCount}",
        String(Math.min(outcome.matches, ranked.length)),
      );
    } else if (ranked.length) {
      // No page holds enough of the query: the closest are listed, and the words no page holds named.
      summary.className = "search-summary search-closest";
      summary.textContent = out.dataset.closest ?? "";
      if (outcome.missing.length) {
        const missing = document.createElement("p");
        missing.className = "search-missing";
        missing.textContent = `${out.dataset.missing ?? ""} ${outcome.missing.join(", ")}`;
        summary.after(missing);
      }
    } else {
      summary.textContent = say(
        "Your search did not match any documents. Please make sure that all words are spelled correctly and that you've selected enough categories.",
      );
    }
  });
}
