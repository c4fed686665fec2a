import t from 'tap'
import { killAfterSubmit } from './kill-after-submit.js'

killAfterSubmit(t, 'embedded')
