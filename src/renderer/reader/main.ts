import '../shared/theme.css'
import { createApp } from 'vue'
import ReaderApp from './ReaderApp.vue'

createApp(ReaderApp).mount('#app')
