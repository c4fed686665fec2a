import { Link } from 'react-router'
import { useLoad } from '../hooks/use-load'
import { Loaded, Title } from '../components/ui'
import { adminClasses, managed } from './catalog'
import { recordsPath } from '../components/links'

/** /admin/records: every class of /api/schemas, linked to its records where it has a record route. */
export default function RecordsIndex() {
  const classes = useLoad(adminClasses, [])
  return (
    <>
      <Title>Records</Title>
      <Loaded state={classes}>{(data) => (
        <table>
          <caption>Classes of the department's schema</caption>
          <thead>
            <tr><th scope="col">Class</th><th scope="col">Description</th><th scope="col">Records</th></tr>
          </thead>
          <tbody>
            {data.filter((c) => c.kind === 'Class').map((c) => {
              const cls = managed(data, c.name)
              return (
                <tr key={c.name}>
                  <th scope="row">{cls ? <Link to={recordsPath(c.name)}>{c.name}</Link> : c.name}</th>
                  <td>{c.description}</td>
                  <td>{cls ? cls.path : c.collection ? 'Managed on its own pages' : 'Part of other records'}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}</Loaded>
    </>
  )
}
