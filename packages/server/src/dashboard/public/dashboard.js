// The dashboard works without this script; it only adds copy buttons (for the new key and the DNS
// records) and moves the focus to the page's first message, so screen readers announce it.

for (const button of document.querySelectorAll('button[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy);
    const text = source?.value ?? source?.textContent ?? '';
    const label = button.textContent;
    try {
      await navigator.clipboard.writeText(text.trim());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select and copy';
    }
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
}

document.querySelector('[data-focus]')?.focus();
