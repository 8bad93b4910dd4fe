// Print buttons ([data-print]) without inline handlers: the Content-Security-Policy allows no
// inline script.
document.addEventListener("click", function (event) {
  var target = event.target;
  if (target instanceof Element && target.closest("[data-print]")) {
    window.print();
  }
});
