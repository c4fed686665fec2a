import Form, { type IChangeEvent } from '@rjsf/core'
import type { ErrorSchema, RegistryWidgetsType } from '@rjsf/utils'
import { useState, type FormEvent } from 'react'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { api, ApiError } from '../api/client'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Title } from '../components/ui'
import { HistoryPanel, recordHistory } from '../history'
import { adminClasses, getRecord, managed, updateRecord, createRecord, type ClassInfo, type Managed, type Row } from './catalog'
import { recordsPath } from '../components/links'
import { bodyOf, fieldOf, formDataOf, prepare, shownDataOf, type Prepared } from './form-schema'
import { ClassesContext, ReferenceWidget } from './reference-widget'
import { serverValidator } from './server-validator'
import { BaseInputTemplate, buttonTemplates, CheckboxesWidget, CheckboxWidget, FieldErrorTemplate, RadioWidget, SelectWidget, TextareaWidget } from './templates'
import './records.css'

type Data = Record<string, unknown>

const widgets: RegistryWidgetsType = { reference: ReferenceWidget, TextareaWidget, SelectWidget, CheckboxWidget, CheckboxesWidget, RadioWidget }
const templates = { BaseInputTemplate, FieldErrorTemplate, ButtonTemplates: buttonTemplates }

interface Loaded {
  readonly all: readonly ClassInfo[]
  readonly cls: Managed | undefined
  readonly form: Prepared | undefined
  readonly record: Row | undefined
}

async function load(name: string, id: string | undefined): Promise<Loaded> {
  const all = await adminClasses()
  const cls = managed(all, name)
  if (!cls) return { all, cls, form: undefined, record: undefined }
  const record = id === undefined ? undefined : await getRecord(cls, id)
  // An edited record is edited as its own class (a Faculty in the Person records).
  const type = typeof record?.type === 'string' ? record.type : name
  const served = await api('get', '/api/schemas/{entityType}', { path: { entityType: type }, query: { variant: id === undefined ? 'create' : 'update' } })
  return { all, cls, form: prepare(served), record }
}

/** /admin/records/:class/new and /admin/records/:class/:id: the class's generated form, saved through its route. */
export default function RecordForm() {
  const { class: name = '', id } = useParams()
  const loaded = useLoad(() => load(name, id), [name, id])
  const title = id === undefined ? `New ${name}` : `Edit ${name}`
  return (
    <>
      <Title>{title}</Title>
      <p><Link to={recordsPath(name)}>{`All ${name} records`}</Link></p>
      <Loaded state={loaded}>{(data) => !data.cls && <Alert>{`${name} has no record route these pages can manage.`}</Alert>}</Loaded>
      {loaded.state === 'ready' && loaded.data.cls && loaded.data.form && (
        <ClassesContext.Provider value={loaded.data.all}>
          <Editor key={id ?? 'new'} name={name} cls={loaded.data.cls} form={loaded.data.form} record={loaded.data.record} />
        </ClassesContext.Provider>
      )}
    </>
  )
}

function Editor({ name, cls, form, record: first }: { name: string; cls: Managed; form: Prepared; record: Row | undefined }) {
  const navigate = useNavigate()
  const saved = (useLocation().state as { saved?: boolean } | null)?.saved === true
  const [record, setRecord] = useState(first)
  const [data, setData] = useState<Data>(() => (first ? shownDataOf(form, first) : {}))
  const [fieldErrors, setFieldErrors] = useState<ErrorSchema<Data> | undefined>()
  const [problem, setProblem] = useState<string | null>(null)
  const [conflict, setConflict] = useState(false)
  const [status, setStatus] = useState<string | null>(saved ? 'Saved.' : null)
  const [busy, setBusy] = useState(false)

  function change(event: IChangeEvent<Data>) {
    setData(event.formData ?? {})
    setFieldErrors(undefined)
    setStatus(null)
  }

  function refused(error: unknown) {
    const message = messageOf(error)
    const field = error instanceof ApiError && error.status === 400 ? fieldOf(message, form.fields) : undefined
    if (field) setFieldErrors({ [field]: { __errors: [message] } } as ErrorSchema<Data>)
    else if (error instanceof ApiError && error.code === 'ADKS_VERSION_CONFLICT') setConflict(true)
    if (!field) setProblem(message)
  }

  async function submit({ formData }: IChangeEvent<Data>, event: FormEvent) {
    event.preventDefault()
    setProblem(null)
    setConflict(false)
    setFieldErrors(undefined)
    setStatus(null)
    setBusy(true)
    try {
      if (record) {
        // The version read: a record changed since then is refused (409) instead of overwritten.
        const body = { ...bodyOf(form.fields, formData ?? {}, formDataOf(form.fields, record), form.defaults), _version: record._version }
        const updated = await updateRecord(cls, record._id, body)
        setRecord(updated)
        setData(shownDataOf(form, updated))
        setStatus('Saved.')
      } else {
        const body = { ...bodyOf(form.fields, formData ?? {}), ...(form.typed ? { type: name } : {}) }
        const created = await createRecord(cls, body)
        const createdId = created._id ?? created.id
        if (createdId) navigate(recordsPath(name, createdId), { state: { saved: true } })
      }
    } catch (error) {
      refused(error)
    } finally {
      setBusy(false)
    }
  }

  /** The record as the server now has it (reloaded, or restored from its history), in place of the one read. */
  function show(current: Row) {
    setRecord(current)
    setData(shownDataOf(form, current))
    setFieldErrors(undefined)
    setProblem(null)
    setConflict(false)
    setStatus(null)
  }

  async function reload() {
    if (!record) return
    setProblem(null)
    try {
      show(await getRecord(cls, record._id))
      setStatus('Reloaded: these are the record\'s values now.')
    } catch (error) {
      setProblem(messageOf(error))
    }
  }

  return (
    <>
      {problem && <Alert>{problem}</Alert>}
      {conflict && <p><button type="button" onClick={() => { void reload() }}>Reload</button></p>}
      <Form<Data>
        schema={form.schema}
        uiSchema={form.uiSchema}
        formData={data}
        validator={serverValidator}
        widgets={widgets}
        templates={templates}
        extraErrors={fieldErrors}
        noHtml5Validate
        showErrorList={false}
        onChange={change}
        onSubmit={(event, formEvent) => { void submit(event, formEvent) }}
      >
        <div className="actions">
          <button type="submit" disabled={busy}>Save</button>
        </div>
      </Form>
      {status && <p role="status">{status}</p>}
      {record?._version !== undefined && <HistoryPanel source={recordHistory(cls.path, record._id)} restore={{ base: cls.path, record: { _id: record._id, _version: record._version }, onRecord: show }} />}
    </>
  )
}
