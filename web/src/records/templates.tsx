import { getDefaultRegistry } from '@rjsf/core'
import { useLayoutEffect, useRef, type ComponentType } from 'react'
import { ariaDescribedByIds, errorId, TranslatableString, type BaseInputTemplateProps, type FieldErrorProps, type IconButtonProps, type WidgetProps } from '@rjsf/utils'

const { BaseInputTemplate: CoreInput, ButtonTemplates } = getDefaultRegistry().templates
const coreWidgets = getDefaultRegistry().widgets

/** A list's buttons say what they do in words: rjsf's own show an icon font this app does not load. */
function worded(words: TranslatableString) {
  return function WordedButton({ icon: _icon, iconType: _iconType, uiSchema: _uiSchema, registry, className, ...button }: IconButtonProps) {
    return <button type="button" className={className} {...button}>{registry.translateString(words)}</button>
  }
}

export const buttonTemplates = {
  ...ButtonTemplates,
  AddButton: worded(TranslatableString.AddItemButton),
  CopyButton: worded(TranslatableString.CopyButton),
  MoveDownButton: worded(TranslatableString.MoveDownButton),
  MoveUpButton: worded(TranslatableString.MoveUpButton),
  RemoveButton: worded(TranslatableString.RemoveButton),
}

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

/**
 * rjsf's widget, its controls marked invalid while it has an error: rjsf's select, check box and radio
 * buttons take no aria-invalid, so it is set on what they render (docs/web.md, "Admins' records").
 */
function markedInvalid(Widget: ComponentType<WidgetProps>) {
  return function MarkedWidget(props: WidgetProps) {
    const box = useRef<HTMLSpanElement>(null)
    const invalid = (props.rawErrors?.length ?? 0) > 0
    // After every render: rjsf may replace the controls, and React leaves an attribute it does not manage.
    useLayoutEffect(() => {
      for (const control of box.current?.querySelectorAll('input, select, textarea') ?? []) {
        if (invalid) control.setAttribute('aria-invalid', 'true')
        else control.removeAttribute('aria-invalid')
      }
    })
    return <span ref={box} className="widget"><Widget {...props} /></span>
  }
}

export const SelectWidget = markedInvalid(coreWidgets.SelectWidget as ComponentType<WidgetProps>)
export const CheckboxWidget = markedInvalid(coreWidgets.CheckboxWidget as ComponentType<WidgetProps>)
export const CheckboxesWidget = markedInvalid(coreWidgets.CheckboxesWidget as ComponentType<WidgetProps>)
export const RadioWidget = markedInvalid(coreWidgets.RadioWidget as ComponentType<WidgetProps>)
