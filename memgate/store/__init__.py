"""memgate.store"""
