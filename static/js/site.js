// Every page: the language switcher takes effect on choosing (its button stays for pages
// without scripts, and is hidden once this runs).
(function () {
  "use strict";
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    var form = select.form;
    var go = form && form.querySelector(".lang-go");
    if (go) go.hidden = true;
    select.addEventListener("change", function () { form.submit(); });
  });
})();
