"""memgate.pools"""
