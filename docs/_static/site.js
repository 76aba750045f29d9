/* The site's own behaviour, in a file so that the Content-Security-Policy needs neither inline
   handlers nor eval (whatcopy/sphinxext/lean_theme.py). Loaded after Sphinx's doctools.js and before its
   translations.js. */

/* Sphinx turns the catalog's plural formula into code with `new Function`, which the policy
   refuses. The site's languages need two formulas: English (n != 1) and Chinese (0). */
if (typeof Documentation !== "undefined") {
  Documentation.addTranslations = (catalog) => {
    Object.assign(Documentation.TRANSLATIONS, catalog.messages);
    const formula = String(catalog.plural_expr).replace(/[\s()]/g, "");
    Documentation.PLURAL_EXPR = formula === "0" ? () => 0 : (n) => (n === 1 ? 0 : 1);
    Documentation.LOCALE = catalog.locale;
  };
}

/* sphinx-book-theme's print and full-screen buttons (data-site-action, no onclick). */
document.addEventListener("DOMContentLoaded", () => {
  const actions = {
    "window.print()": () => window.print(),
    "toggleFullScreen()": () => window.toggleFullScreen(),
  };
  for (const button of document.querySelectorAll("[data-site-action]")) {
    const action = actions[button.dataset.siteAction];
    if (action) button.addEventListener("click", action);
  }
});
