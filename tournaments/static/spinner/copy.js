// Copy buttons: <button data-copy="ID" data-copied="..." data-failed="..."> copies the text of
// the element with that id, and says so in the next [role=status] (the page's own words, so
// they are translated). No inline script: the CSP allows none.
(function () {
  "use strict";

  function selectText(element) {
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  async function copy(button) {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    const status = button.parentElement.querySelector("[role=status]");
    const text = source.textContent.trim();
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch (error) {
      selectText(source);
      ok = document.execCommand && document.execCommand("copy");
    }
    if (status) {
      status.textContent = ok ? button.dataset.copied : button.dataset.failed;
      status.classList.toggle("failed", !ok);
    }
    if (!ok) selectText(source);
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-copy]");
    if (button) copy(button);
  });
})();
