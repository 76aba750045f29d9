// The pure functions of docs/_static/site-search.js, in Node's own test runner (no dependency):
// node --test tests/site_search.test.cjs; tests/test_search.py runs it with the suite.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const R = require("../docs/_static/site-search.js");

// The index's Chinese words (a page count each), as Pagefind's jieba split the pages: 张量 and
// 原 are words, 原张量 is not.
const INDEX = { 张量: 22, 原: 9, 共用: 21, 内存: 22, 显存: 5, 验证: 19, 时候: 17, 一直: 13, 涨: 3, 区别: 7, 复制: 20, 也: 12, 会: 22, 变: 5, 吗: 12, 的: 22 };
const known = (word) => INDEX[word] ?? 0;

test("the constants of the ranking are one frozen block", () => {
  assert.ok(Object.isFrozen(R.RANKING));
  assert.equal(R.RANKING.SHARE, 0.6);
  for (const key of ["MAX_RESULTS", "PASSAGE_BOOST", "WINDOW", "HEADING_BOOST", "ROW_BOOST", "ENTRY_BOOST", "ENTRY_WORDS", "SLACK", "LONGEST_WORD"]) {
    assert.equal(typeof R.RANKING[key], "number", key);
  }
  assert.deepEqual(Object.keys(R.RANKING.pagefind), ["pageLength"]);
});

test("a query's runs: Latin words lower case, numbers and one letter dropped, Han runs whole", () => {
  assert.deepEqual(
    R.runs("RuntimeError: x.data vs detach() [torch.FloatTensor [3, 49]] 的区别").map((r) => r.text),
    ["runtimeerror", "data", "vs", "detach", "torch", "floattensor", "的区别"],
  );
  assert.deepEqual(R.runs("requires_grad 共用内存", true).map((r) => [r.text, r.han]), [
    ["requires", false],
    ["grad", false],
    ["共用内存", true],
  ]);
  assert.deepEqual(R.runs("requires_grad").map((r) => r.text), ["requires_grad"]);
  // a learner's file name says where the code is, not what is asked (decision 0050)
  assert.deepEqual(R.runs("torch.Tensor vs torch.tensor in model.py").map((r) => r.text), ["torch", "tensor", "vs", "torch", "tensor", "in"]);
  assert.deepEqual(R.runs("train_loop.ipynb 显存").map((r) => r.text), ["显存"]);
  // a Latin word against Han characters is a name (the method to), one apart from them is not
  assert.deepEqual(R.runs("模型to函数的区别").map((r) => [r.text, r.named ?? null]), [
    ["模型", null],
    ["to", true],
    ["函数的区别", null],
  ]);
  assert.equal(R.runs("模型 to 函数").find((r) => r.text === "to").named, false);
});

test("a Han run is split into the index's words, most characters covered by real words", () => {
  assert.deepEqual(R.segment("原张量也会变吗", known), ["原", "张量", "也", "会", "变", "吗"]);
  assert.deepEqual(R.segment("验证的时候显存一直涨", known), ["验证", "的", "时候", "显存", "一直", "涨"]);
  assert.deepEqual(R.segment("共用内存", known), ["共用", "内存"]);
  // a longer word wins over two shorter ones that cover the same characters
  assert.deepEqual(R.segment("共用内存", (w) => ({ 共用: 1, 内存: 1, 共用内存: 1 })[w] ?? 0), ["共用内存"]);
  // greedy from the left would take 量也 here; the split covering most with words does not
  const junk = (w) => ({ 张量: 22, 量也: 1 })[w] ?? 0;
  assert.deepEqual(R.segment("张量也", junk), ["张量", "也"]);
});

test("asking words are dropped and a lone character joins its neighbour when the site has both in a row", () => {
  const together = (a, b) => `${a}${b}` === "原张量";
  assert.deepEqual(
    R.hanTerms(["原", "张量", "也", "会", "变", "吗"], together).map((t) => [t.word, t.parts]),
    [["原张量", ["原", "张量"]]],
  );
  assert.deepEqual(R.hanTerms(["如何", "复制", "张量"], () => false).map((t) => t.word), ["复制", "张量"]);
  assert.deepEqual(R.hanTerms(["的", "区别"], () => false).map((t) => t.word), ["区别"]);
  // a core word typed alone stays, and so does a lone character typed alone
  assert.deepEqual(R.hanTerms(["张量"], () => false).map((t) => t.word), ["张量"]);
  assert.deepEqual(R.hanTerms(["改"], () => false).map((t) => t.word), ["改"]);
  for (const word of ["如何", "怎么", "是否", "是什么", "意思", "吗", "什么"]) {
    if (word !== "是什么") assert.ok(R.ASKING.has(word), word);
  }
  for (const word of ["复制", "共享", "区别", "copy", "share", "detach", "not"]) assert.ok(!R.ASKING.has(word), word);
  // the things compared, counted, say how one asks: 三者的区别 is about the words before it
  for (const word of ["两者", "二者", "三者"]) assert.ok(R.ASKING.has(word), word);
  // a Chinese title's words around its subject: clone 用法 详解 is about clone
  assert.deepEqual(R.hanTerms(["用法", "详解"], () => false).map((t) => t.word), []);
  assert.deepEqual(R.hanTerms(["是", "什么", "原因"], () => false).map((t) => t.word), []);
  for (const word of ["原理", "作用", "几种", "方法", "总结"]) assert.ok(R.ASKING.has(word), word);
  for (const word of ["视图", "梯度", "显存", "不同"]) assert.ok(!R.ASKING.has(word), word);
  // a character that places the word before it (训练时, 修改后, no_grad() 下) joins nothing, even
  // where the site holds the two in a row: 训练时 on one page would outweigh 训练 and 显存
  assert.deepEqual(R.hanTerms(["训练", "时", "显存"], () => true).map((t) => t.word), ["训练", "显存"]);
  assert.deepEqual(R.hanTerms(["修改", "后"], () => true).map((t) => t.word), ["修改"]);
  // characters in a row that the index holds as no word are a word no page holds (不足), not
  // dropped one by one; an asking word between them parts them (变 吗: 变 alone is dropped)
  assert.deepEqual(R.hanTerms(["内存", "不", "足"], () => false).map((t) => t.word), ["内存", "不足"]);
  assert.deepEqual(R.hanTerms(["不", "足", "的", "内存"], () => false).map((t) => t.word), ["不足", "内存"]);
  assert.deepEqual(R.hanTerms(["张量", "变", "吗"], () => false).map((t) => t.word), ["张量"]);
  // nor is an asking word the index does not hold (搞懂, split into 搞 and 懂)
  assert.deepEqual(R.hanTerms(["彻底", "搞", "懂", "叶子"], () => false).map((t) => t.word), ["叶子"]);
  assert.deepEqual(R.hanTerms(["下", "创建"], () => true).map((t) => t.word), ["创建"]);
});

test("a line of code that writes in place: an augmented assignment or one into an index", () => {
  for (const line of ["w -= lr * w.grad", "x += y", "weights[0] *= 1.0001", "w[:, 0] = 1", "x /= norm 改成 x = x / norm", "x **= 2"]) {
    assert.ok(R.writesInPlace(line), line);
  }
  for (const line of ["x = x / norm", "torch.randn(3, requires_grad=True)", "a == b", "x <= y", "x >= 0", "a != b", "loss_list.append(loss.item())",
                      "total_loss += float(loss)", "running_loss += loss.item()", "n -= int(mask.sum())"]) {
    assert.ok(!R.writesInPlace(line), line);
  }
});

test("a Chinese query's English term of several words is read as the one word the terms know it by", () => {
  const terms = new Set(["leaftensor", "inplace", "inplaceoperation", "versioncounter"]);
  const isTerm = (word) => terms.has(word);
  assert.equal(R.joinTerms("区分 Leaf Tensor 和非 Leaf Tensor", isTerm), "区分 leaftensor 和非 leaftensor");
  // the longest run that is a term; the words around it stay as written
  assert.equal(R.joinTerms("the in-place operation here", isTerm), "the inplaceoperation here");
  assert.equal(R.joinTerms("my version counter 变了", isTerm), "my versioncounter 变了");
  // words that make no term together are left apart (a hyphen read as a space, as runs() reads it)
  assert.equal(R.joinTerms("no-grad 模式 Leaf node", isTerm), "no grad 模式 Leaf node");
  assert.equal(R.joinTerms("张量 detach", isTerm), "张量 detach");
});

test("an identifier's parts and a query's dotted names", () => {
  assert.deepEqual(R.partsOf("set_sizes_contiguous"), ["set", "sizes", "contiguous"]);
  assert.deepEqual(R.partsOf("unbindbackward0", "Output 0 of UnbindBackward0"), ["unbind", "backward"]);
  assert.deepEqual(R.partsOf("floattensor", "[torch.FloatTensor [3]]"), ["float", "tensor"]);
  assert.deepEqual(R.partsOf("detach"), []);
  assert.deepEqual(R.dottedNames("does torch.tensor() copy; x.data and nn.functional.pad"), [
    ["torch", "tensor"],
    ["nn", "functional", "pad"],
  ]);
});

test("the fragments of code a query quotes: two pieces or more, with a bracket, longest first", () => {
  const spans = R.codeSpans("why does x[[0, 1]][0] = 5 not change x");
  assert.equal(spans[0], "x[[0, 1]][0] = 5");
  assert.ok(spans.includes("x[[0, 1]][0]"), spans);
  assert.ok(spans.every((s, i) => i === 0 || s.split(" ").length <= spans[i - 1].split(" ").length), spans);
  assert.ok(R.codeSpans("y = x.detach(); y[0] = 100").includes("y[0] = 100"));
  assert.ok(!R.codeSpans("y = x.detach(); y[0] = 100").includes("y[0]"), "one piece is any reader's variable");
  for (const query of ["detach() vs torch.no_grad()", "w -= lr * w.grad", "RuntimeError: a leaf Variable that requires grad (such as x) is used", "张量 x[0] 改了"]) {
    assert.deepEqual(R.codeSpans(query), [], query);
  }
});

test("a word's weight: rarer weighs more, a word on every page still counts, one on none most", () => {
  const pages = 22;
  assert.ok(R.weightOf(0, pages) > R.weightOf(1, pages));
  assert.ok(R.weightOf(1, pages) > R.weightOf(12, pages));
  assert.ok(R.weightOf(22, pages) > 0.5, "a word on every page");
  assert.ok(R.pagefindWeight(22, pages) < 0.05, "Pagefind's own gives it almost nothing");
});

test("a passage: the most weight of distinct words within the window", () => {
  const at = [
    [0, "detach", 1],
    [5, "clone", 2],
    [30, "detach", 1],
    [33, "clone", 2],
    [34, "clone", 2],
    [80, "grad", 0.5],
  ];
  assert.equal(R.passage(at, 12), 3);
  assert.equal(R.passage(at, 60), 3.5);
  assert.equal(R.passage([], 12), 0);
  assert.equal(R.windowFor("does clone copy grad"), R.RANKING.WINDOW);
  const pasted = "one of the variables needed for gradient computation has been modified by an inplace operation";
  assert.equal(R.windowFor(pasted), Math.round(R.RANKING.WINDOW_PER_WORD * 15));
});

function term(word, pages, extra = false) {
  return { word, parts: [word], extra, hits: pages.map(([id, score, words]) => ({ id, score, words })) };
}

test("a word no page holds does not sink the pages that hold the others: they are listed as the closest", () => {
  const terms = [
    term("numpy", [["values", 2, [10]], ["devices", 1, [40]]]),
    term("array", [["values", 2, [11]], ["glossary", 1, [90]]]),
    term("writable", []),
    term("userwarning", []),
  ];
  const outcome = R.rankPages(terms, 22, "UserWarning: The given NumPy array is not writable");
  assert.equal(outcome.matched, false);
  assert.deepEqual(outcome.missing, ["writable", "userwarning"]);
  assert.equal(outcome.ranked[0].id, "values");
  assert.equal(outcome.ranked.length, 3);
});

test("when some pages hold the query, they are listed first, the one holding it in one passage first", () => {
  // questions: a long page with more occurrences, each further apart (its BM25 a little higher)
  const terms = [
    term("hidden", [["training", 1, [100]], ["questions", 1.5, [5, 400]], ["glossary", 1, [7]]]),
    term("state", [["training", 1, [103]], ["questions", 1.5, [600]]]),
    term("lstm", [["training", 1, [101]], ["questions", 1.5, [900]]]),
  ];
  const outcome = R.rankPages(terms, 22, "hidden state lstm");
  assert.equal(outcome.matched, true);
  assert.equal(outcome.matches, 2);
  // two matches, fewer than FEWEST: the closest other page follows them, not as a match
  assert.deepEqual(outcome.ranked.map((p) => [p.id, p.match]), [["training", true], ["questions", true], ["glossary", false]]);
  assert.ok(outcome.ranked[0].passage > outcome.ranked[1].passage);
  // three matches or more: only they are listed
  const more = [...terms.slice(0, 2), term("lstm", [["training", 1, [101]], ["questions", 1.5, [900]], ["glossary", 1, [8]]])];
  const three = R.rankPages([more[0], term("state", [["training", 1, [103]], ["questions", 1.5, [600]], ["glossary", 1, [9]]]), more[2]], 22, "hidden state lstm");
  assert.equal(three.matches, 3);
  assert.ok(three.ranked.every((p) => p.match), three.ranked.map((p) => p.id));
});

test("a word one page holds by chance, weighing most of the query, does not leave that page alone", () => {
  // 安全 on one page (rare: it weighs most); data and detach on many, which answer the question
  const terms = [
    term("data", [["overview", 1, [3]], ["questions", 2, [50]], ["inplace", 2, [70]]]),
    term("detach", [["overview", 1, [4]], ["questions", 2, [51]], ["inplace", 2, [72]]]),
    term("安全", [["overview", 1, [5]]]),
  ];
  const outcome = R.rankPages(terms, 22, ".data 和 .detach() 哪个更安全");
  assert.equal(outcome.matches, 1);
  assert.deepEqual(outcome.ranked.map((p) => p.id).sort(), ["inplace", "overview", "questions"]);
  assert.equal(outcome.ranked[0].id, "overview");
});

test("words the site holds only apart are no match: the same pages are listed as the closest", () => {
  // every word on some page, but no page holds them all in one passage (BCE Loss vs Cross Entropy)
  const apart = [
    term("bce", [["training", 1, [10]], ["operators", 1, [900]]]),
    term("loss", [["training", 1, [400]], ["operators", 1, [20]]]),
    term("cross", [["operators", 1, [700]], ["training", 1, [800]]]),
    term("entropy", [["operators", 1, [300]]]),
  ];
  const outcome = R.rankPages(apart, 22, "BCE Loss vs Cross Entropy");
  assert.equal(outcome.matched, false);
  assert.ok(outcome.ranked.every((p) => !p.match));
  assert.deepEqual(outcome.ranked.map((p) => p.id).sort(), ["operators", "training"]);
  // the seeded contrast: one page holding them together is a match, and the query matched
  const together = apart.map((t, i) => ({ ...t, hits: [...t.hits, { id: "losses", score: 1, words: [50 + i] }] }));
  const found = R.rankPages(together, 22, "BCE Loss vs Cross Entropy");
  assert.equal(found.matched, true);
  assert.equal(found.ranked.find((p) => p.id === "losses").match, true);
});

test("an extra term (a dotted name, an identifier's part) ranks but does not count for the bar", () => {
  const terms = [term("valueerror", []), term("batch", [["training", 5, [3]]], true)];
  const outcome = R.rankPages(terms, 22, "ValueError batch");
  assert.equal(outcome.matched, false);
  assert.equal(outcome.ranked[0].id, "training");
});

test("the boosts: a heading holding every word, a row for the operator the query names", () => {
  const pages = () => [
    { id: "a", rank: 10, data: { meta: { title: "Views" }, sub_results: [], anchors: [] } },
    { id: "b", rank: 5, data: { meta: { title: "Q" }, sub_results: [{ title: "Does clone copy .grad?" }], anchors: [] } },
    { id: "c", rank: 4, data: { meta: { title: "Ops" }, sub_results: [], anchors: [{ element: "tr", id: "op-permute", location: 9 }] } },
  ];
  const terms = [term("clone", [["a", 1, [1]]]), term("copy", [["a", 1, [2]]]), term("grad", [["a", 1, [3]]])];
  const ranked = R.boost(pages(), terms, "does clone copy grad", 22);
  assert.deepEqual(ranked.map((p) => p.id), ["b", "a", "c"]);
  const permute = [term("permute", [["c", 1, [9]]]), term("copy", [["a", 1, [2]]])];
  assert.equal(R.boost(pages(), permute, "does x.permute() copy", 22)[0].id, "c");
});

test("headings hold a Latin word at a word's start and a Han word anywhere", () => {
  assert.ok(R.holdsEvery("Trap: a clone's .grad stays empty", ["clone", "grad"]));
  assert.ok(!R.holdsEvery("Trap: a clone's .grad stays empty", ["lone"]));
  assert.ok(R.holdsEvery("deepcopy 会复制梯度吗", ["复制", "梯度"]));
});

test("the section that answers is where the words come together, not the one with most matches", () => {
  const at = [
    [10, "data", 1],
    [12, "detach", 1],
    [200, "detach", 1],
    [210, "detach", 1],
    [220, "detach", 1],
    [230, "detach", 1],
  ];
  const sections = [
    { title: "Why is .grad None?", locations: [200, 210, 220, 230] },
    { title: "What is the difference between x.data and x.detach()?", locations: [10, 12] },
  ];
  assert.equal(R.bestSection(sections, at).title, sections[1].title);
  assert.equal(R.bestSection([], at), null);
});

test("a section's heading holds a word in the plural too: the section that says it in its title", () => {
  assert.equal(R.singular("copies"), "copy");
  assert.equal(R.singular("losses"), "loss");
  assert.equal(R.singular("uses"), "use");
  assert.equal(R.singular("class"), "class");
  assert.ok(R.headingHolds("It copies .grad too", "copy"));
  assert.ok(!R.headingHolds("It copies .grad too", "cop_"));
  // both hold every word of the query; the one whose heading says copy, in the plural, is chosen
  const at = [
    [10, "copy", 1],
    [11, "grad", 1],
    [100, "copy", 1],
    [101, "grad", 1],
  ];
  const sections = [
    { title: "Trap: a module's copy has no gradients", locations: [10, 11] },
    { title: "It copies .grad too", locations: [100, 101] },
  ];
  assert.equal(R.bestSection(sections, at, 12, "does deepcopy copy grad").title, sections[1].title);
});

test("an operator's row: the longest name the query gives that has a row", () => {
  const anchors = [
    { element: "tr", id: "op-pad" },
    { element: "tr", id: "op-nn.functional.pad" },
    { element: "h2", id: "op-table" },
  ];
  assert.equal(R.rowFor(anchors, "nn.functional.pad copies?").id, "op-nn.functional.pad");
  assert.equal(R.rowFor(anchors, "does pad copy").id, "op-pad");
  assert.equal(R.rowFor(anchors, "table"), null);
  assert.equal(R.rowFor([], "pad"), null);
});

test("a pasted message: a class of error or warning with its colon", () => {
  for (const query of ["RuntimeError: x", "UserWarning: y", "CUDA error: device-side assert triggered", "Exception : z"]) {
    assert.ok(R.isMessage(query), query);
  }
  for (const query of ["detach vs clone", "error messages", "Trying to backward through the graph a second time"]) {
    assert.ok(!R.isMessage(query), query);
  }
});

test("a query's words in its order: each word's place, then the chain a page holds", () => {
  const query = "RuntimeError: is at version 1; expected version 0 instead";
  const place = R.positions(query, ["runtimeerror", "version", "expected", "instead", "absent"]);
  assert.deepEqual([...place], [["runtimeerror", 0], ["version", 3], ["expected", 5], ["instead", 8]]);
  assert.deepEqual([...R.positions("torch.from_numpy(arr) 共用内存", ["numpy", "共用"])], [["numpy", 1], ["共用", 3]]);
  // the page prints the message: its words in order, as far apart as in the query (numbers too)
  const printed = [
    [100, "runtimeerror", 1],
    [103, "version", 1],
    [105, "expected", 2],
    [108, "instead", 3],
  ];
  assert.deepEqual(R.inOrder(printed, place), { weight: 7, words: 4 });
  // the same words scattered over a long page, or in another order, hold no more than one or two
  const scattered = [
    [10, "instead", 3],
    [400, "expected", 2],
    [900, "version", 1],
    [1500, "runtimeerror", 1],
  ];
  assert.deepEqual(R.inOrder(scattered, place), { weight: 3, words: 1 });
  const reversed = [
    [100, "instead", 3],
    [101, "expected", 2],
    [102, "version", 1],
  ];
  assert.equal(R.inOrder(reversed, place).weight, 3);
  // the learner's own words in between are passed over, up to SLACK words more than the query has
  const apart = (gap) => [
    [0, "version", 1],
    [2 + gap, "expected", 2],
  ];
  assert.equal(R.inOrder(apart(R.RANKING.SLACK), place).weight, 3);
  assert.equal(R.inOrder(apart(R.RANKING.SLACK + 1), place).weight, 2);
  assert.deepEqual(R.inOrder([], place), { weight: 0, words: 0 });
});

test("a pasted message is a match only where its words come in its order, not scattered", () => {
  const query = "CUDA error: device-side assert triggered";
  // the atlas page holds every word, far apart; another page holds them as the message has them
  const terms = [
    term("cuda", [["atlas", 3, [10]], ["printed", 1, [500]]]),
    term("error", [["atlas", 3, [900]], ["printed", 1, [501]]]),
    term("device", [["atlas", 3, [2000]], ["printed", 1, [502]]]),
    term("side", [["atlas", 3, [3000]], ["printed", 1, [503]]]),
    term("assert", [["atlas", 3, [4000]], ["printed", 1, [504]]]),
    term("triggered", [["atlas", 3, [5000]], ["printed", 1, [505]]]),
  ];
  const outcome = R.rankPages(terms, 22, query);
  assert.equal(outcome.matched, true);
  assert.equal(outcome.matches, 1);
  assert.deepEqual(outcome.ranked.map((p) => [p.id, p.match]), [["printed", true], ["atlas", false]]);
  // nothing holds it so: the closest pages are listed, not as matches
  const alone = R.rankPages(terms.map((t) => ({ ...t, hits: t.hits.filter((h) => h.id === "atlas") })), 22, query);
  assert.equal(alone.matched, false);
  // a question is a match where its words are together, in any order; scattered, it is not
  const asked = "cuda error device side assert triggered";
  const near = terms.map((t, i) => ({ ...t, hits: [{ id: "atlas", score: 3, words: [20 - i] }] }));
  assert.equal(R.rankPages(near, 22, asked).matched, true);
  assert.equal(R.rankPages(terms.map((t) => ({ ...t, hits: t.hits.filter((h) => h.id === "atlas") })), 22, asked).matched, false);
});

test("the words two texts have in a row", () => {
  assert.equal(R.sharedRun("RuntimeError: a leaf Variable that requires grad is …", "a leaf Variable that requires grad"), 6);
  assert.equal(R.sharedRun("Output 0 of Split is a view", "Output 1 of Split"), 3);
  assert.equal(R.sharedRun("Views", "does clone copy"), 0);
});

test("an entry of the error atlas: its heading anchored err-, the one that holds the message", () => {
  assert.ok(R.isEntry("/en/errors.html#err-backward-twice"));
  assert.ok(!R.isEntry("/en/errors.html#errors-backward") && !R.isEntry("/en/operators.html#op-permute") && !R.isEntry(undefined));
  const anchors = [
    { element: "h2", id: "the-messages", text: "The messages", location: 0 },
    { element: "section", id: "err-leaf", text: "", location: 10 },
    { element: "h4", id: "err-leaf", text: "RuntimeError: a leaf Variable that requires grad is used.", location: 10 },
    { element: "h4", id: "err-view", text: "RuntimeError: a view of a leaf Variable that requires grad is used.", location: 40 },
    { element: "h4", id: "err-other", text: "RuntimeError: something else entirely", location: 80 },
  ];
  const query = "a leaf Variable that requires grad";
  const place = R.positions(query, ["leaf", "variable", "requires", "grad"]);
  const at = (start) => ["leaf", "variable", "requires", "grad"].map((word, i) => [start + i, word, 1]);
  // the first entry holds it in its text; the second too; the third's heading does not have it
  assert.deepEqual(R.entryFor(anchors, [...at(12), ...at(45), ...at(85)], place, query), { id: "err-leaf", weight: 4, words: 4 });
  assert.equal(R.entryFor(anchors, at(85), place, query).weight, 0);
  assert.equal(R.entryFor(anchors.slice(0, 1), at(12), place, query), null);
  // a heading of another page that says the message is no entry of the atlas
  const prose = [{ element: "h2", id: "leaf-trap", text: "a leaf Variable that requires grad", location: 0 }];
  assert.equal(R.entryFor(prose, at(2), place, query), null);
});

test("the boost for an entry of the error atlas that holds a pasted message", () => {
  const anchors = [{ element: "h4", id: "err-leaf", text: "RuntimeError: a leaf Variable that requires grad is used.", location: 10 }];
  const query = "a leaf Variable that requires grad is used";
  const words = ["leaf", "variable", "requires", "grad", "used"];
  const terms = words.map((word) => term(word, [["atlas", 1, [11]], ["flags", 1, [5]]]));
  const weight = R.weightOf(2, 22); // as rankPages gives each match
  const pages = (atlasAt) => [
    { id: "flags", rank: 10, at: words.map((w, i) => [5 + i, w, weight]), data: { meta: { title: "Flags" }, sub_results: [], anchors: [] } },
    { id: "atlas", rank: 8, at: atlasAt, data: { meta: { title: "Errors" }, sub_results: [], anchors } },
  ];
  assert.deepEqual(R.boost(pages(words.map((w, i) => [11 + i, w, weight])), terms, query, 22).map((p) => p.id), ["atlas", "flags"]);
  // the entry's words scattered (outside the entry): no boost
  assert.deepEqual(R.boost(pages(words.map((w, i) => [1 + 100 * i, w, weight])), terms, query, 22).map((p) => p.id), ["flags", "atlas"]);
  // the message among a learner's words that name its words first, in another order (设置
  // requires_grad = True 的张量 ...): the entry holds it in the message's order, not in the order
  // in which the whole query first names them
  const wrapped = "used 的 grad 和 requires 的 variable 报错 RuntimeError: a leaf Variable that requires grad is used";
  assert.deepEqual(R.boost(pages(words.map((w, i) => [11 + i, w, weight])), terms, wrapped, 22).map((p) => p.id), ["atlas", "flags"]);
});

test("the section that answers: of two that hold the query, the heading that says least besides", () => {
  assert.equal(R.besides("RuntimeError: a view of a leaf Variable", "a leaf Variable"), 3);
  assert.equal(R.besides("RuntimeError: a leaf Variable", "RuntimeError: a leaf Variable"), 0);
  const at = ["leaf", "variable"].flatMap((word, i) => [
    [10 + i, word, 1],
    [50 + i, word, 1],
  ]);
  const sections = [
    { title: "RuntimeError: a view of a leaf Variable that requires grad", locations: [10, 11] },
    { title: "RuntimeError: a leaf Variable that requires grad", locations: [50, 51] },
  ];
  assert.equal(R.bestSection(sections, at, 12, "a leaf Variable that requires grad").title, sections[1].title);
});

test("an underscore name's pieces in Chinese are never words that say how one asks", () => {
  assert.deepEqual(R.runs("torch.from_numpy(arr)", true).map((r) => [r.text, r.named]), [
    ["torch", false],
    ["from", true],
    ["numpy", true],
    ["arr", false],
  ]);
  assert.ok(R.ASKING.has("from"));
});

test("a method the query calls is a name, never a word that says how one asks", () => {
  // .to(device): `to` is an asking word elsewhere (how to copy), not where it is called
  assert.deepEqual(R.runs("model.to(device) 代表什么").map((r) => [r.text, r.named]), [
    ["model", false],
    ["to", true],
    ["device", false],
    ["代表什么", undefined],
  ]);
  assert.deepEqual(R.runs("how to move it").map((r) => [r.text, r.named]), [
    ["how", false],
    ["to", false],
    ["move", false],
    ["it", false],
  ]);
  assert.ok(R.ASKING.has("to"));
});

test("an indexed word that is a word with an asking character stuck to it is read apart", () => {
  // the index holds 模型或 (its segmenter joined them on a page) and 模型; 或 asks nothing
  const known = (w) => ({ 模型或: 3, 模型: 15, 张量: 24 })[w] ?? 0;
  assert.deepEqual(R.segment("模型或张量", known), ["模型", "或", "张量"]);
  assert.deepEqual(R.segment("的区别", (w) => ({ 的区别: 2, 区别: 20 })[w] ?? 0), ["的", "区别"]);
  // a word whose edge character asks but whose rest is no word stays whole (中间 is not 中 + 间)
  assert.deepEqual(R.segment("中间张量", (w) => ({ 中间张量: 4, 张量: 24 })[w] ?? 0), ["中间张量"]);
});

test("a pasted message inside a learner's words: from its class to its last Latin word", () => {
  const query = "用yolov7的best.pt时报错RuntimeError: Can't call numpy() on Tensor that requires grad. 请问怎么解决";
  assert.equal(R.messageSpan(query), "RuntimeError: Can't call numpy() on Tensor that requires grad");
  assert.equal(R.messageSpan("does clone copy grad"), "does clone copy grad");
  assert.ok(R.inText(R.messageSpan(query), "numpy"));
  assert.ok(!R.inText(R.messageSpan(query), "yolov7"));
  assert.ok(R.inText("requires_grad 报错", "grad") && R.inText("requires_grad 报错", "报错"));
  // without its class, in a Chinese sentence: its run of six Latin words or more
  const pasted = "我训练时出现了element 0 of tensors does not require grad and does not have a grad_fn， 请问一下这个该怎么解决";
  assert.equal(R.messageSpan(pasted), "element 0 of tensors does not require grad and does not have a grad_fn");
  // a shorter run of code is no message: the whole query
  assert.equal(R.messageSpan("x.clone().detach()和torch.tensor(x).float()的使用场景"), "x.clone().detach()和torch.tensor(x).float()的使用场景");
  assert.equal(R.messageSpan("element 0 of tensors does not require grad"), "element 0 of tensors does not require grad");
});

test("a reference page counts for what its best unit holds, each word once", () => {
  const anchors = [
    { element: "h1", id: "errors", location: 0 },
    { element: "h4", id: "err-a", location: 10 },
    { element: "h4", id: "err-b", location: 20 },
    { element: "h2", id: "errors-how", location: 30 },
  ];
  const at = [[5, "z", 9], [11, "x", 1], [12, "y", 2], [13, "x", 1], [21, "x", 1], [31, "w", 4]];
  assert.equal(R.bestUnit(anchors, at), 3); // err-a: x and y; the heading's and the other section's words count for none
  assert.equal(R.bestUnit(anchors, []), 0);
  assert.equal(R.bestUnit(anchors.filter((a) => !a.id.startsWith("err-")), at), null); // no unit: not a reference page
  // a glossary's terms and an operator table's rows are units; an alias span inside a row is not
  const glossary = [{ element: "dt", id: "term-leaf", location: 0 }, { element: "dt", id: "term-view", location: 8 }];
  assert.equal(R.bestUnit(glossary, [[1, "x", 1], [9, "y", 2], [10, "x", 1]]), 3);
  const table = [{ element: "tr", id: "op-clone", location: 0 }, { element: "span", id: "op-copy", location: 3 }, { element: "tr", id: "op-view", location: 6 }];
  assert.equal(R.bestUnit(table, [[1, "x", 1], [4, "y", 2], [7, "x", 1]]), 3);
});
