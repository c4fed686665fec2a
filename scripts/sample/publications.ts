import { randomName } from './names.js'
import { emailDomain, type FacultyArea, type FacultyMember } from './people.js'
import type { Random } from './random.js'
import { keyed, type SampleRecord, type Unit } from './records.js'

const publicationsPerUnit = 400

type Publisher = 'acm' | 'ieee' | 'springer' | 'siam' | 'arxiv' | 'acl' | 'aaai' | 'vldb' | 'elsevier' | 'tandf' | 'ims' | 'none'

const venues: Record<FacultyArea, readonly (readonly [name: string, publisher: Publisher])[]> = {
  systems: [['ACM Symposium on Operating Systems Principles (SOSP)', 'acm'], ['USENIX Symposium on Operating Systems Design and Implementation (OSDI)', 'none'],
    ['European Conference on Computer Systems (EuroSys)', 'acm'], ['ACM Transactions on Computer Systems', 'acm']],
  theory: [['ACM Symposium on Theory of Computing (STOC)', 'acm'], ['IEEE Symposium on Foundations of Computer Science (FOCS)', 'ieee'],
    ['ACM-SIAM Symposium on Discrete Algorithms (SODA)', 'siam'], ['Journal of the ACM', 'acm']],
  ai: [['Advances in Neural Information Processing Systems (NeurIPS)', 'arxiv'], ['International Conference on Machine Learning (ICML)', 'none'],
    ['AAAI Conference on Artificial Intelligence', 'aaai'], ['Annual Meeting of the Association for Computational Linguistics (ACL)', 'acl'],
    ['IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)', 'ieee'], ['IEEE International Conference on Robotics and Automation (ICRA)', 'ieee']],
  hci: [['ACM CHI Conference on Human Factors in Computing Systems', 'acm'], ['ACM Symposium on User Interface Software and Technology (UIST)', 'acm'],
    ['Proceedings of the ACM on Human-Computer Interaction (CSCW)', 'acm'], ['IEEE Transactions on Visualization and Computer Graphics', 'ieee']],
  security: [['IEEE Symposium on Security and Privacy', 'ieee'], ['USENIX Security Symposium', 'none'],
    ['ACM Conference on Computer and Communications Security (CCS)', 'acm']],
  data: [['ACM SIGMOD International Conference on Management of Data', 'acm'], ['Proceedings of the VLDB Endowment', 'vldb'],
    ['ACM SIGIR Conference on Research and Development in Information Retrieval', 'acm'], ['ACM SIGKDD Conference on Knowledge Discovery and Data Mining', 'acm']],
  pl: [['ACM SIGPLAN Conference on Programming Language Design and Implementation (PLDI)', 'acm'], ['ACM SIGPLAN Symposium on Principles of Programming Languages (POPL)', 'acm'],
    ['International Conference on Software Engineering (ICSE)', 'ieee'], ['International Conference on Computer Aided Verification (CAV)', 'springer']],
  math: [['SIAM Journal on Optimization', 'siam'], ['Mathematical Programming', 'springer'], ['Journal of Combinatorial Theory, Series B', 'elsevier']],
  stats: [['Journal of the American Statistical Association', 'tandf'], ['Annals of Statistics', 'ims'], ['Journal of Machine Learning Research', 'none']],
}

const topics: Record<FacultyArea, readonly string[]> = {
  systems: ['serverless functions', 'persistent memory', 'datacenter scheduling', 'kernel-bypass networking', 'crash consistency', 'tail latency', 'disaggregated storage'],
  theory: ['sparse graph cuts', 'online matching', 'submodular maximization', 'streaming lower bounds', 'quantum query complexity', 'fair division'],
  ai: ['low-resource translation', 'robot grasping', 'offline reinforcement learning', 'multimodal retrieval', 'uncertainty calibration', 'long-context language models'],
  hci: ['screen reader navigation', 'collaborative writing', 'visual analytics', 'older adults and smartphones', 'programming education', 'mixed reality meetings'],
  security: ['password managers', 'side-channel leakage', 'software supply chains', 'encrypted search', 'phishing detection'],
  data: ['learned indexes', 'query optimization', 'entity resolution', 'stream processing', 'data lake discovery', 'approximate query answering'],
  pl: ['gradual typing', 'program synthesis', 'memory-safe systems code', 'incremental compilation', 'smart contract verification', 'flaky tests'],
  math: ['first-order methods', 'graph colorings', 'sparse linear solvers', 'extremal set systems'],
  stats: ['causal effect estimation', 'Bayesian model averaging', 'conformal prediction', 'high-dimensional covariance', 'change-point detection'],
}

const methods = ['Adaptive', 'Scalable', 'Provably efficient', 'Robust', 'Lightweight', 'Learning-based', 'Verified', 'Practical', 'Private', 'Interpretable']
const systemNames = ['Kestrel', 'Marlin', 'Quill', 'Atlas', 'Ember', 'Fjord', 'Saffron', 'Lumen', 'Tandem', 'Heron', 'Juniper', 'Cobalt']

function title(random: Random, area: FacultyArea): string {
  const topic = random.pick(topics[area])
  const method = random.pick(methods)
  switch (random.int(0, 4)) {
    case 0: return `${method} ${topic}`
    case 1: return `Rethinking ${topic}`
    case 2: return `${random.pick(systemNames)}: ${method.toLowerCase()} ${topic} in practice`
    case 3: return `On the limits of ${topic}`
    default: return `Towards ${method.toLowerCase()} ${topic}`
  }
}

function abstractFor(random: Random, area: FacultyArea): string {
  const topic = random.pick(topics[area])
  return `We study ${topic}, a problem that matters to practitioners and researchers alike. `
    + `Our approach ${random.pick(['improves on the best known results', 'reduces cost substantially', 'comes with formal guarantees', 'is simple to deploy'])}, `
    + `and an evaluation on ${random.int(3, 12)} ${random.pick(['benchmarks', 'real-world data sets', 'user studies', 'production workloads'])} shows gains of ${random.int(12, 85)}% over prior work.`
}

/** A DOI in the registrant's usual shape; `n` (unique per publication) keeps every DOI distinct. */
function doiFor(publisher: Publisher, n: number, year: number, venue: string): string | undefined {
  const pad = (value: number, width: number) => String(value).padStart(width, '0')
  const short = /\(([A-Za-z]+)\)/.exec(venue)?.[1]?.toUpperCase() ?? 'TVCG'
  switch (publisher) {
    case 'acm': return `10.1145/${3_000_000 + (n * 7919) % 700_000}.${3_000_000 + n}`
    case 'ieee': return `10.1109/${short}.${year}.${pad(n, 5)}`
    case 'springer': return `10.1007/978-3-031-${pad(n, 5)}-${n % 10}_${1 + (n % 40)}`
    case 'siam': return `10.1137/${year % 100}M${pad(n, 7)}`
    case 'arxiv': return `10.48550/arXiv.${year % 100}${pad(1 + (n % 12), 2)}.${pad(n, 5)}`
    case 'acl': return `10.18653/v1/${year}.acl-long.${n}`
    case 'aaai': return `10.1609/aaai.v${year - 1986}i${1 + (n % 12)}.${20_000 + n}`
    case 'vldb': return `10.14778/${3_500_000 + n}.${3_500_000 + n * 3}`
    case 'elsevier': return `10.1016/j.jctb.${year}.${pad(1 + (n % 12), 2)}.${pad(n, 3)}`
    case 'tandf': return `10.1080/01621459.${year}.${pad(n, 7)}`
    case 'ims': return `10.1214/${year % 100}-AOS${pad(n, 4)}`
    case 'none': return undefined
  }
}

function fullName(record: SampleRecord): string {
  return `${record.body.first_name as string} ${record.body.last_name as string}`
}

/**
 * Publications led by research-active faculty (more by senior ones), often with their doctoral students
 * first in the author list and with co-authors from elsewhere.
 */
export function makePublications(unit: Unit, faculty: readonly FacultyMember[], graduates: readonly SampleRecord[]): SampleRecord[] {
  const { random } = unit
  const weights = faculty.map((f) => [f, f.senior ? 5 : f.researchActive ? 3.5 : 0.5] as const)
  return Array.from({ length: publicationsPerUnit }, (_, i) => {
    const n = unit.index * publicationsPerUnit + i + 1
    const lead = random.weighted(weights)
    const advisees = graduates.filter((g) => (g.body.advisors as string[]).includes(lead.record.id))
    const students = advisees.length && random.chance(0.5) ? random.sample(advisees, random.int(1, 2)) : []
    const colleagues = random.chance(0.2) ? random.sample(faculty.filter((f) => f.area === lead.area && f !== lead), 1) : []
    const earliest = students.length ? Math.max(...students.map((s) => 2025 - (s.body.year_in_program as number))) : 2006
    const year = Math.max(earliest, 2025 - Math.floor(Math.abs(random.normal()) * 5))
    const outside = Array.from({ length: random.int(0, 3) }, () => { const name = randomName(random); return `${name.first} ${name.last}` })
    const authors = [...students.map(fullName), ...outside, ...colleagues.map((c) => fullName(c.record)), fullName(lead.record)]
    const [venue, publisher] = random.pick(venues[lead.area])
    const doi = random.chance(0.85) ? doiFor(publisher, n, year, venue) : undefined
    const age = 2026 - year
    const body: Record<string, unknown> = {
      title: title(random, lead.area),
      authors,
      venue,
      year,
      citation_count: Math.round(Math.exp(random.normal() * 1.1 + 1.2) * (0.3 + age * 0.9)),
      dept_authors: [...students.map((s) => s.id), ...colleagues.map((c) => c.record.id), lead.record.id],
      abstract: abstractFor(random, lead.area),
      url: doi ? `https://doi.org/${doi}` : `https://${emailDomain}/papers/pub-${n}.pdf`,
    }
    if (doi) body.doi = doi
    if (doi && random.chance(0.7)) body.source_id = `W${4_100_000_000 + n * 13 + random.int(0, 12)}`
    return keyed('Publication', `pub-${String(n).padStart(6, '0')}`, body)
  })
}
