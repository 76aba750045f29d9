/* The site's search, on search.html only (whatcopy/sphinxext/site_search.py): Pagefind's index
   of the finished pages, queried so that whatever a learner pastes or types finds its page.

   Pagefind lists a page only when it holds every word of the query, which a pasted error message
   (with its tensor sizes and version numbers) or a question in one's own words rarely meets.
   So each word is looked up on its own, and a page's score is the sum of its scores for the words
   it holds (Pagefind's BM25 for each: rare words weigh more, words on every page almost nothing).
   A page is listed when the words it holds carry at least half of the query's weight, a word's
   weight being how rare it is on the site (one the site never uses weighs most): a query about
   something the site does not cover lists nothing, rather than every page that says "error".

   Chinese has no spaces between words. Pagefind segmented the pages when it built the index; a
   run of Han characters in the query is split here into the longest words the index holds
   (Pagefind matches a word by its start, so a prefix with results is the start of an indexed
   word), so that 共用内存 typed without a space finds 共用 and 内存.

   The code, the WebAssembly and the index chunks load when the reader searches, not before. */
"use strict";

const SiteSearch = (() => {
  const MAX_RESULTS = 10;
  const SHARE = 0.6; // of the query's weight, that a listed page must hold
  const BOOST = 4; // how much more a page counts whose words come together in one passage
  const HEADING_BOOST = 2; // and one with a heading that holds every word of the query
  const root = document.documentElement.dataset.content_root ?? "./";
  const bundle = new URL(`${root}pagefind/`, document.baseURI).href;
  let loading = null;

  const load = () =>
    (loading ??= (async () => {
      const pagefind = await import(`${bundle}pagefind.js`);
      await pagefind.options({ excerptLength: 28 });
      await pagefind.init();
      const entry = await (await fetch(`${bundle}pagefind-entry.json`)).json();
      const pages = Object.values(entry.languages).reduce((n, l) => n + l.page_count, 0);
      return { pagefind, pages };
    })());

  const HAN = /\p{Script=Han}/u;
  /* Words that say how a learner asks, not what about: dropped from the query. */
  const ASKING = new Set(
    ("vs versus " + "的 和 与 跟 吗 呢 了 是 什么 怎么 怎么办 为什么 哪个 哪 好 报错 解决 问题").split(" "),
  );
  // Pagefind's Chinese segmenter splits requires_grad into requires and grad; so does the query.
  const SPLIT_UNDERSCORE = document.documentElement.lang.startsWith("zh");
  const LONGEST_WORD = 6; // Han characters: longer words are split
  const WINDOW = 12; // words: how close a page's matches must be to count as one passage

  async function results(pagefind, word) {
    const found = await pagefind.search(word);
    return found ? found.results : [];
  }

  /* The pages that hold `word` itself (after Pagefind's stemming), not a longer word that starts
     with it nor, when there is none, the longest word that it starts with (Pagefind's fallback,
     which would find "w" for "watchdog"). */
  async function exactly(pagefind, word) {
    return results(pagefind, `"${word}"`);
  }

  /* The pages for a word of the query, ranked by Pagefind's BM25: those of the words that start
     with it. Where no indexed word is the word itself, the first page's excerpt tells whether
     Pagefind matched a longer word (sourceTensor in sourceTensor.detach()) or fell back to a
     shorter one, which does not count. */
  async function hitsOf(pagefind, word) {
    const hits = await results(pagefind, word);
    if (!hits.length || (await exactly(pagefind, word)).length) return hits;
    const marked = ((await hits[0].data()).excerpt.match(/<mark>(.*?)<\/mark>/) ?? ["", ""])[1];
    return marked.toLocaleLowerCase().replace(/[^\p{L}\p{N}_]/gu, "").startsWith(word) ? hits : [];
  }

  /* A run of Han characters, split into the longest words the index holds, from the left. */
  async function hanWords(pagefind, run) {
    const words = [];
    let start = 0;
    while (start < run.length) {
      let end = Math.min(run.length, start + LONGEST_WORD);
      while (end > start && !(await exactly(pagefind, run.slice(start, end))).length) end--;
      // a single character left over from a longer word the site does not use says little
      if (end - start > 1 || run.length === 1) words.push(run.slice(start, end));
      start = Math.max(end, start + 1); // a character that is no word cannot match anything
    }
    return words;
  }

  /* The query's words: letters, digits and underscores (Pagefind's own words), lower case;
     one-letter Latin words and single digits are dropped (x, 0, 1 are on every page). */
  async function words(pagefind, query) {
    const found = [];
    for (const token of query.toLocaleLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) {
      for (const part of token.match(/\p{Script=Han}+|[^\p{Script=Han}]+/gu)) {
        if (HAN.test(part)) found.push(...(await hanWords(pagefind, part)));
        else if (SPLIT_UNDERSCORE) found.push(...part.split("_").filter((w) => w.length > 1));
        else if (part.length > 1) found.push(part);
      }
    }
    return [...new Set(found)].filter((word) => !ASKING.has(word));
  }

  /* The weight of the query's words found together, within WINDOW words of each other: the
     most any one passage of the page holds. */
  function passage(at) {
    at.sort((a, b) => a[0] - b[0]);
    let best = 0;
    for (let i = 0; i < at.length; i++) {
      const seen = new Map();
      for (let j = i; j < at.length && at[j][0] - at[i][0] < WINDOW; j++) seen.set(at[j][1], at[j][2]);
      best = Math.max(best, [...seen.values()].reduce((sum, w) => sum + w, 0));
    }
    return best;
  }

  /* Pages ranked for `query`: [{id, score, words}], best first. */
  async function rank(query) {
    const { pagefind, pages } = await load();
    const terms = await words(pagefind, query);
    const byPage = new Map();
    let total = 0;
    for (const term of terms) {
      const hits = await hitsOf(pagefind, term);
      // Pagefind's inverse document frequency: a word on no page weighs most.
      const weight = Math.log((pages - hits.length + 0.5) / (hits.length + 0.5) + 1);
      total += weight;
      for (const hit of hits) {
        const page = byPage.get(hit.id) ?? { id: hit.id, score: 0, weight: 0, words: [], hit, at: [] };
        page.score += hit.score;
        page.weight += weight;
        page.words.push(term);
        for (const location of hit.words) page.at.push([location, term, weight]);
        byPage.set(hit.id, page);
      }
    }
    const listed = [...byPage.values()].filter((page) => total > 0 && page.weight >= SHARE * total);
    for (const page of listed) {
      page.passage = passage(page.at) / total;
      page.rank = page.score * (1 + BOOST * page.passage);
    }
    listed.sort((a, b) => b.rank - a.rank || (a.id < b.id ? -1 : 1));
    // A page with a heading that holds every word of the query (a question asked as the site
    // asks it, "does clone copy grad" for "clone() does not copy .grad") counts more: among the
    // first pages, whose fragments the results will load anyway.
    if (terms.length > 1) {
      await Promise.all(
        listed.slice(0, MAX_RESULTS).map(async (page) => {
          const data = await page.hit.data();
          const titles = [data.meta?.title ?? "", ...(data.sub_results ?? []).map((s) => s.title)];
          if (titles.some((title) => holdsEvery(title, terms))) page.rank *= 1 + HEADING_BOOST;
          // so does one with a row of its own for an operator the query names (the reference)
          if (rowFor(data, query)) page.rank *= 1 + HEADING_BOOST;
        }),
      );
      listed.sort((a, b) => b.rank - a.rank || (a.id < b.id ? -1 : 1));
    }
    return listed;
  }

  /* The row of a page's table that is about an operator the query names, as the reference
     marks one (<tr id="op-permute">, or an alias in its row: <span id="op-swapaxes">): "does
     x.permute() copy" and "torch.permute" name permute, "nn.functional.pad" its own row. The
     longest name with a row wins. */
  function rowFor(data, query) {
    const marks = (a) => (a.element === "tr" || a.element === "span") && a.id.startsWith("op-");
    const rows = new Map((data.anchors ?? []).filter(marks).map((a) => [a.id, a]));
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

  /* Whether a heading holds each of the words: a Latin word as the start of one of its words,
     a Han word anywhere in it. */
  function holdsEvery(title, terms) {
    const lower = title.toLocaleLowerCase();
    const tokens = lower.match(/[\p{L}\p{N}_]+/gu) ?? [];
    return terms.every((term) =>
      HAN.test(term) ? lower.includes(term) : tokens.some((token) => token.startsWith(term)),
    );
  }

  /* What to show of a ranked page: its title, address, best sections and excerpt, from a search
     for the words it holds (so Pagefind marks all of them). A page with a row for an operator
     the query names is shown at that row. */
  async function describe(page, query = "") {
    const { pagefind } = await load();
    const same = (await results(pagefind, page.words.join(" "))).find((r) => r.id === page.id);
    const data = await (same ?? page.hit).data();
    const sections = [...(data.sub_results ?? [])]
      .filter((s) => s.url !== data.url)
      .sort((a, b) => (b.locations?.length ?? 0) - (a.locations?.length ?? 0))
      .slice(0, 2);
    const row = rowFor(data, query);
    if (row) {
      const url = `${data.url.split("#")[0]}#${row.id}`;
      const name = row.id.slice(3);
      sections.unshift({ title: name, url, excerpt: rowExcerpt(data, row, name) });
      sections.splice(2);
      return { title: data.meta?.title ?? data.url, url, excerpt: data.excerpt, sections };
    }
    return { title: data.meta?.title ?? data.url, url: data.url, excerpt: data.excerpt, sections };
  }

  /* The row's own words, from the page's indexed text (escaped), its operator's name marked.
     Pagefind gives the row's place as a count of words, which in Chinese text (segmented into
     words without spaces) is not a count of spaces: the row is the occurrence of its name, as a
     name of its own, nearest to that place. */
  function rowExcerpt(data, row, name) {
    const text = data.content;
    const near = (text.length * row.location) / Math.max(1, data.word_count);
    const own = (i) => !/[\p{L}\p{N}_.:]/u.test(text[i - 1] ?? " ") && !/[\p{L}\p{N}_.]/u.test(text[i + name.length] ?? " ");
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

  return { load, rank, describe, words, MAX_RESULTS };
})();

/* The search page: the query from the address (?q=...), in the field and searched. */
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
  const ranked = (await SiteSearch.rank(query)).slice(0, SiteSearch.MAX_RESULTS);
  const list = document.createElement("ul");
  list.className = "search";
  for (const page of ranked) {
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
  summary.textContent = ranked.length
    ? say("Search finished, found ${resultCount} page(s) matching the search query.").replace(
        "${resultCount}",
        String(ranked.length),
      )
    : say(
        "Your search did not match any documents. Please make sure that all words are spelled correctly and that you've selected enough categories.",
      );
});
