import type { ReactNode } from 'react'

/**
 * A table too wide for a phone scrolls sideways inside this region instead of widening the page
 * (docs/web.md, "Phones"). The region is named, usually as the table's caption, and takes focus, so a
 * keyboard user can scroll it with the arrow keys.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="scroll-region" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  )
}
