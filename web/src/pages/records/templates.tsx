import { getDefaultRegistry } from '@rjsf/core'
import { ariaDescribedByIds, errorId, type BaseInputTemplateProps, type FieldErrorProps, type WidgetProps } from '@rjsf/utils'

const { BaseInputTemplate: CoreInput } = getDefaultRegistry().templates

/** A field's errors (the server's message), announced as soon as they are shown. */
export function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const shown = errors.filter(Boolean)
  if (shown.length === 0) return null
  return (
    <div id={errorId(fieldPathId)} role="alert" className="field-error">
      {shown.map((error, i) => <p key={i}>{error}</p>)}
    </div>
  )
}

/** rjsf's input, marked invalid while it has an error. */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  return <CoreInput {...props} aria-invalid={(props.rawErrors?.length ?? 0) > 0 || undefined} />
}

/** A long text, marked invalid while it has an error (rjsf's own text area cannot be). */
export function TextareaWidget({ id, htmlName, value, required, disabled, readonly, onChange, onBlur, onFocus, options, rawErrors }: WidgetProps) {
  return (
    <textarea
      id={id}
      name={htmlName || id}
      value={typeof value === 'string' ? value : ''}
      required={required}
      disabled={disabled}
      readOnly={readonly}
      aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  )
}
