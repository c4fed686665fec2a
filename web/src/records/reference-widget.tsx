import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils'
import { createContext, useContext, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { messageOf } from '../lib/errors'
import { getRecord, labelOf, listRecords, listRoutes, managed, type ClassInfo, type Row } from './catalog'

/** The schema's classes, for pickers to find the route of the class they refer to. */
export const ClassesContext = createContext<readonly ClassInfo[]>([])

const shown = 20

/** Records of `cls` matching `text`: its list's search where it has one, else its first page filtered by name. */
async function candidates(all: readonly ClassInfo[], name: string, text: string): Promise<readonly Row[]> {
  const cls = managed(all, name)
  if (!cls) return []
  if (listRoutes[cls.path].search) return (await listRecords(cls, { limit: shown, offset: 0, search: text })).items
  const words = text.toLowerCase()
  const page = await listRecords(cls, { limit: 200, offset: 0 })
  return page.items.filter((row) => `${labelOf(row)} ${row._id}`.toLowerCase().includes(words)).slice(0, shown)
}

/**
 * A reference field (`x-reference` in the schema) as a combobox: typing searches the referenced class,
 * the arrow keys move through the matches, Enter or a click picks one, Escape closes the list.
 */
export function ReferenceWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, schema, label, hideLabel, required, disabled, readonly, rawErrors } = props
  const all = useContext(ClassesContext)
  const target = String(schema['x-reference'] ?? '')
  const listId = `${useId()}-options`
  const [text, setText] = useState('')
  const [options, setOptions] = useState<readonly Row[]>([])
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [problem, setProblem] = useState<string | null>(null)
  const named = useRef(new Map<string, string>())

  // A value read with the record is shown by its name once the referenced record is read.
  useEffect(() => {
    if (typeof value !== 'string' || !value) return
    let current = true
    setText(named.current.get(value) ?? value)
    if (named.current.has(value)) return
    const cls = managed(all, value.split('/')[0] ?? '') ?? managed(all, target)
    if (cls) getRecord(cls, value).then((row) => { if (current) setText(labelOf(row)) }, () => undefined)
    return () => { current = false }
  }, [value, all, target])

  useEffect(() => {
    if (!open) return
    let current = true
    const timer = setTimeout(() => {
      candidates(all, target, text.trim()).then(
        (rows) => { if (current) { setOptions(rows); setActive(rows.length ? 0 : -1); setProblem(null) } },
        (error: unknown) => { if (current) setProblem(messageOf(error)) },
      )
    }, 200)
    return () => { current = false; clearTimeout(timer) }
  }, [open, text, all, target])

  function choose(row: Row) {
    named.current.set(row._id, labelOf(row))
    setText(labelOf(row))
    setOpen(false)
    onChange(row._id)
  }

  function keyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!open) return setOpen(true)
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((i) => (options.length ? (i + step + options.length) % options.length : -1))
    } else if (event.key === 'Enter' && open) {
      // Enter picks the match; it must not submit the form.
      event.preventDefault()
      const row = options[active]
      if (row) choose(row)
    } else if (event.key === 'Escape' && open) {
      event.preventDefault()
      setOpen(false)
    }
  }

  const invalid = (rawErrors?.length ?? 0) > 0
  const optionId = (i: number) => `${listId}-${i}`
  return (
    <div className="picker">
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        aria-label={hideLabel ? label : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        aria-required={required || undefined}
        disabled={disabled}
        readOnly={readonly}
        value={text}
        placeholder={`Search ${target}`}
        onChange={(event) => {
          setText(event.target.value)
          setOpen(true)
          if (!event.target.value) onChange(undefined)
        }}
        onKeyDown={keyDown}
        onFocus={() => onFocus(id, value)}
        onBlur={() => { setOpen(false); onBlur(id, value) }}
      />
      <ul role="listbox" id={listId} aria-label={`${label}: matches`} hidden={!open}>
        {options.map((row, i) => (
          <li
            key={row._id}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'active' : undefined}
            // mousedown, not click: the input keeps focus and its blur does not close the list first.
            onMouseDown={(event) => { event.preventDefault(); choose(row) }}
          >
            {labelOf(row)} <span className="record-id">{row._id}</span>
          </li>
        ))}
      </ul>
      {open && <p role="status" className="picker-status">{problem ?? (options.length ? `${options.length} matches` : `No ${target} matches`)}</p>}
      {typeof value === 'string' && value && <p className="picker-value">Chosen: <span className="record-id">{value}</span></p>}
    </div>
  )
}
