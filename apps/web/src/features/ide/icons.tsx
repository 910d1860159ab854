// Small line icons drawn inline (no icon font to fetch; system fonts lack many symbols).
import type { ReactNode } from 'react';

function Svg({ children, size = 16 }: { children: ReactNode; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export const FilesIcon = () => (
  <Svg size={20}>
    <path d="M4 1.5h5l3 3v8H4z" />
    <path d="M9 1.5v3h3" />
    <path d="M2 4v10.5h8" />
  </Svg>
);

export const GearIcon = () => (
  <Svg size={20}>
    <circle cx="8" cy="8" r="2.2" />
    <path d="M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4" />
  </Svg>
);

export const NewFileIcon = () => (
  <Svg>
    <path d="M3.5 1.5h5l3 3v3" />
    <path d="M3.5 1.5v13h5" />
    <path d="M12 10v5M9.5 12.5h5" />
  </Svg>
);

export const NewFolderIcon = () => (
  <Svg>
    <path d="M1.5 3.5h4l1.5 1.5h7.5v3" />
    <path d="M1.5 3.5v9h6.5" />
    <path d="M12 10v5M9.5 12.5h5" />
  </Svg>
);

export const UploadIcon = () => (
  <Svg>
    <path d="M8 11V2.5M4.5 6 8 2.5 11.5 6" />
    <path d="M2.5 11v2.5h11V11" />
  </Svg>
);

export const RefreshIcon = () => (
  <Svg>
    <path d="M13 8a5 5 0 1 1-1.5-3.6" />
    <path d="M13 2.5v3h-3" />
  </Svg>
);
