// Show one verdict kind only in a chapter's claims table (book/_ext/claims_status.py).
// No network: it only hides rows (and sections left empty) of the current page.
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("select.claims-filter-select").forEach((select) => {
    const apply = () => {
      const want = select.value;
      document.querySelectorAll("tr.claim-row").forEach((row) => {
        const show = want === "all" || row.classList.contains(`claim-group-${want}`);
        row.classList.toggle("claims-hidden", !show);
      });
      document.querySelectorAll("section.claims-section").forEach((sec) => {
        const any = sec.querySelector("tr.claim-row:not(.claims-hidden)");
        sec.classList.toggle("claims-hidden", !any);
      });
    };
    select.addEventListener("change", apply);
    apply();
  });
});
