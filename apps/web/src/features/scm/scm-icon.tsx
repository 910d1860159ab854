// The Source Control activity bar icon, drawn like the IDE's other line icons (ide/icons.tsx).
export const SourceControlIcon = () => (
  <svg width={20} height={20} viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <circle cx="4.5" cy="3.5" r="1.5" />
    <circle cx="4.5" cy="12.5" r="1.5" />
    <circle cx="11.5" cy="5.5" r="1.5" />
    <path d="M4.5 5v6M11.5 7c0 2.5-3 2.5-5.5 4.3" />
  </svg>
);
