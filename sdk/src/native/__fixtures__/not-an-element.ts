export default class NotAnElement {}
